use behaved::prelude::*;
struct Ctx { cells: Vec<u64> }
const MORE: u32 = 2;

behave! {
    // 65,535 + 1 fit the limit of 65,536; the third loop goes over it.
    tree Fits for Ctx {
        sequence {
            for a: u64 in |c| c.cells.iter().copied() max 65535 { success },
            for b: u64 in |c| c.cells.iter().copied() max 1 { success },
        }
    }
    tree TooMany for Ctx {
        sequence {
            for a: u64 in |c| c.cells.iter().copied() max 65535 { success },
            for b: u64 in |c| c.cells.iter().copied() max 1 { success },
            for d: u64 in |c| c.cells.iter().copied() max 16000000 { success }
        }
    }
    // A constant count: rustc adds it up.
    tree TooManyWithAConstant for Ctx {
        sequence {
            for a: u64 in |c| c.cells.iter().copied() max 65535 { success },
            for b: u64 in |c| c.cells.iter().copied() max MORE { success }
        }
    }
    // After a constant count, rustc adds the literal ones too: 2 + 65,534 fit, one more does not.
    tree FitsAfterAConstant for Ctx {
        sequence {
            for a: u64 in |c| c.cells.iter().copied() max MORE { success },
            for b: u64 in |c| c.cells.iter().copied() max 65534 { success },
        }
    }
    tree TooManyAfterAConstant for Ctx {
        sequence {
            for a: u64 in |c| c.cells.iter().copied() max MORE { success },
            for b: u64 in |c| c.cells.iter().copied() max 65534 { success },
            for d: u64 in |c| c.cells.iter().copied() max 1 { success },
        }
    }
}
fn main() {}
