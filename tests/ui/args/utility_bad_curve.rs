use behaved::prelude::*;
struct Ctx { hp: u32, now: f64 }
impl Clock for Ctx { fn now(&self) -> f64 { self.now } }
behave! {
    tree T for Ctx {
        utility {
            behaved::utility::Curve::Logistic { steepness: 0.0, midpoint: 1.0 }.of(|c: &Ctx| c.hp as f32) => success,
            behaved::utility::Curve::Polynomial { exponent: -2.0, slope: 1.0, shift: 0.0, intercept: 0.0 }.of(|c: &Ctx| c.hp as f32) => failure,
        }
    }
}
fn main() {}
