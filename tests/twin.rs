//! The macro-compiled Wild Dog and its hand-written twin (the benches' speed
//! limit) behave identically, tick by tick, over a long scripted run.
use behaved_bench_trees::wild_dog;

use wild_dog::*;

#[test]
fn compiled_and_hand_written_agree_for_ten_thousand_ticks() {
    let (mut compiled, mut by_hand) = (WildDog::new(), WildDogByHand::default());
    let (mut a, mut b) = (
        DogCtx {
            dist: 5,
            ..DogCtx::default()
        },
        DogCtx {
            dist: 5,
            ..DogCtx::default()
        },
    );
    let mut seen = [0u32; 3];
    for tick in 0..10_000 {
        script(tick, &mut a);
        script(tick, &mut b);
        let now = a.now;
        let (x, y) = (compiled.tick(&mut a), by_hand.tick_at(&mut b, now));
        assert_eq!(x, y, "status at tick {tick}");
        assert_eq!(a, b, "context at tick {tick}");
        seen[x as usize] += 1;
    }
    assert!(a.attacks > 500, "the dog really fought: {} attacks", a.attacks);
    assert_eq!(seen, [0, 0, 10_000], "a loop is always running");
}
