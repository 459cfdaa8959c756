//! Villagers choosing by utility (`behaved_scenarios::village`, issue 25): the
//! criteria hold over twenty minutes of village life, the JSON form does
//! exactly what the compiled form does, step by step, and the margin is what
//! keeps the choices from flickering.
use behaved_scenarios::village::{FILE, Fickle, Place, Village, VillageEvent, Villager, registry};

/// Twenty minutes at ten ticks a second.
const RUN_S: f64 = 1200.0;
const VILLAGERS: usize = 8;

fn file() -> String {
    std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(FILE),
    )
    .unwrap()
}

#[test]
fn over_twenty_minutes_every_need_is_met_no_choice_flickers_and_most_of_the_day_is_work() {
    let mut village = Village::new(VILLAGERS, |_| Villager::new());
    village.run_for(RUN_S);
    let report = village.report();
    println!("{VILLAGERS} villagers, {RUN_S} s: {report:?}");
    assert!(report.max_need < 0.9, "nobody near starving or collapsing: {report:?}");
    assert_eq!(
        report.flickers, 0,
        "no choice taken up again within 2 s of being given up"
    );
    assert!(report.work_share >= 0.5, "most of the day at work: {report:?}");
    for (i, (_, folk)) in village.folk.iter().enumerate() {
        for place in [Place::Kitchen, Place::Home, Place::Square] {
            let met = folk
                .log
                .iter()
                .filter(|e| matches!(e, VillageEvent::Satisfied { place: p, .. } if *p == place))
                .count();
            assert!(met >= 2, "villager {i} met its need at {place:?} {met} times");
        }
    }
}

#[test]
fn the_json_form_does_exactly_what_the_compiled_form_does_at_every_step() {
    let mut compiled = Village::new(VILLAGERS, |_| Villager::new());
    let mut interpreted = Village::interpreted(VILLAGERS, &file()).unwrap();
    for step in 0..(RUN_S / behaved_scenarios::village::DT) as usize {
        compiled.step();
        interpreted.step();
        for (i, ((_, a), (_, b))) in compiled.folk.iter().zip(&interpreted.folk).enumerate() {
            assert_eq!(a, b, "villager {i} after step {step}");
        }
    }
    assert!(compiled.report().choices > 100, "the run made choices to compare");
}

#[test]
fn without_the_margin_choices_flicker_and_a_need_goes_unmet() {
    let mut steady = Village::new(VILLAGERS, |_| Villager::new());
    let mut fickle = Village::new(VILLAGERS, |_| Fickle::new());
    steady.run_for(RUN_S);
    fickle.run_for(RUN_S);
    let (steady, fickle) = (steady.report(), fickle.report());
    println!("margin 0.15: {steady:?}\nmargin 0:    {fickle:?}");
    assert!(fickle.flickers > 100 * steady.flickers.max(1), "{fickle:?}");
    assert_eq!(fickle.max_need, 1.0, "someone reached a need's maximum");
    assert!(fickle.work_share < steady.work_share / 2.0);
}

#[test]
fn a_misspelt_need_in_the_file_is_a_load_error_at_its_json_path() {
    let bad = file().replacen("\"hunger\"", "\"thirst\"", 1);
    let error = registry().load(&bad).unwrap_err().to_string();
    assert!(error.contains("child.scores[0].consider"), "{error}");
    assert!(error.contains("thirst"), "{error}");
}
