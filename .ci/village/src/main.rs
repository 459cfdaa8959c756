use behaved_bevy::Interact;
use village::{Counter, Villager, village};

fn main() {
    let (mut app, shopkeeper) = village();
    for _ in 0..100 {
        app.update(); // ten seconds of village life
    }
    let mut villagers = app.world_mut().query::<&Villager>();
    let meals: u32 = villagers.iter(app.world()).map(|v| v.meals).sum();
    let walks: u32 = villagers.iter(app.world()).map(|v| v.walks).sum();
    assert!(meals >= 10 && walks >= 30, "meals {meals}, walks {walks}");

    app.world_mut().get_mut::<Counter>(shopkeeper).unwrap().customer_gold = 4;
    for _ in 0..2 {
        app.world_mut().write_message(Interact { npc: shopkeeper });
        app.update();
    }
    let counter = app.world().get::<Counter>(shopkeeper).unwrap();
    assert_eq!(counter.said, ["Fresh bread, three coins.", "Come back with gold."]);
    assert_eq!((counter.till, counter.customer_gold), (3, 1));
    println!(
        "village: {meals} meals, {walks} walks; the shopkeeper said {:?}",
        counter.said
    );
}
