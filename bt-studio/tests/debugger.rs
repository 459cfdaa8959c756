//! Control of a running game from the live view, over a real WebSocket on
//! loopback: a game thread with `Debugger::frame_gate` in its loop, a page's
//! commands sent as the page sends them.

mod common;

use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::Ordering;
use std::time::Duration;

use behaved::prelude::*;
use behaved_observe::{Event, Trace};
use common::game::Game;
use common::guard::Guard;
use common::live::apply;
use serde_json::{Value, json};
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};

/// A page following agent `id`, rebuilding its window from the server's messages.
struct Page {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    window: Option<Trace>,
    /// The last message with a window.
    last: Value,
    /// Every stop the server reported, in order.
    stops: Vec<Value>,
}

impl Page {
    fn follow(addr: SocketAddr, id: usize) -> Page {
        let (socket, _) = tungstenite::connect(format!("ws://{addr}/api/live/{id}")).unwrap();
        // Messages that never come fail the test instead of hanging it.
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        }
        let mut page = Page {
            socket,
            window: None,
            last: Value::Null,
            stops: Vec::new(),
        };
        assert_eq!(
            page.next()["mayControl"],
            true,
            "a page on the game's machine may control it"
        );
        page
    }

    fn next(&mut self) -> Value {
        let read = self.socket.read();
        let read = read.unwrap_or_else(|e| panic!("no message ({e}) after {}", self.last));
        match read {
            Message::Text(text) => serde_json::from_str(&text).unwrap(),
            other => panic!("a text message, not {other:?}"),
        }
    }

    fn send(&mut self, command: Value) {
        self.socket.send(Message::Text(command.to_string().into())).unwrap();
    }

    /// Reads messages until `done` holds of the last one (its window
    /// applied), unless it holds already.
    fn until(&mut self, what: &str, done: impl Fn(&Page) -> bool) {
        if self.window.is_some() && done(self) {
            return;
        }
        for _ in 0..10_000 {
            let message = self.next();
            assert!(message.get("error").is_none(), "{what}: {message}");
            apply(&mut self.window, &message);
            self.stops
                .extend(message["stops"].as_array().into_iter().flatten().cloned());
            self.last = message;
            if done(self) {
                return;
            }
        }
        panic!("never {what}");
    }

    fn control(&self) -> &Value {
        &self.last["control"]
    }

    fn paused(&self) -> bool {
        self.control()["paused"] == true
    }

    fn frame(&self) -> u64 {
        self.control()["frame"].as_u64().unwrap()
    }

    fn window(&self) -> &Trace {
        self.window.as_ref().unwrap()
    }
}

/// The event a stop names: event `event` (from 1; 0 is the tick's start) of tick `tick`.
fn stopped_at(window: &Trace, stop: &Value) -> Event {
    let tick = stop["tick"].as_u64().unwrap();
    let k = stop["event"].as_u64().unwrap() as usize;
    let events = window.ticks().find(|t| t.tick == tick).unwrap().events;
    events[k]
}

/// `events` with every tick's number taken out of its start (set to 0):
/// two runs counted from different ticks compare event for event.
fn without_tick_numbers(events: &[Event]) -> Vec<Event> {
    events
        .iter()
        .map(|e| match *e {
            Event::TickStarted { now, .. } => Event::TickStarted { tick: 0, now },
            e => e,
        })
        .collect()
}

#[test]
fn breakpoints_stop_the_game_at_the_traced_event_and_steps_advance_one_frame_or_to_the_next_event() {
    let (studio, observer) = common::live::serve_guard("guard");
    let chase = Guard::NODES.iter().position(|n| n.label == "Chase").unwrap() as u64;
    // The page follows and sets its breakpoint before the game's first frame:
    // the window's ticks and the gate's frames are the game's.
    let mut page = Page::follow(studio.addr(), 0);
    page.send(json!({ "break": { "node": chase, "on": "enter" } }));
    page.until("the breakpoint set", |p| {
        p.last["breaks"] == json!({ "nodes": [{ "node": chase, "on": ["enter"] }], "anyFailure": false, "forces": [] })
    });
    let game = Game::start(observer, studio.debugger());

    // 1. A breakpoint on entering Chase.
    page.until("stopped by the breakpoint", |p| {
        !p.stops.is_empty()
            && p.paused()
            && p.window
                .as_ref()
                .is_some_and(|w| w.last_tick() >= p.stops[0]["tick"].as_u64().unwrap())
    });
    let stop = page.stops[0].clone();
    assert_eq!(stop["reason"], "breakpoint");
    assert_eq!(
        stopped_at(page.window(), &stop),
        Event::Entered {
            node: NodeId(chase as u32)
        },
        "the stop names the event that met the breakpoint: {stop}"
    );
    let entered_before = page
        .window()
        .events
        .iter()
        .filter(|e| {
            **e == Event::Entered {
                node: NodeId(chase as u32),
            }
        })
        .count();
    assert_eq!(entered_before, 1, "the first entering of Chase stopped the game");
    // The game stopped after that frame: the frame the stop was in is the game's last.
    let stopped_in = page.control()["stoppedIn"]["frame"].as_u64().unwrap();
    assert_eq!(game.frames.load(Ordering::SeqCst), stopped_in);
    assert_eq!(page.window().last_tick(), game.ticks.load(Ordering::SeqCst));

    // 2. Steps of one frame: the gate lets exactly one through each time.
    let mut frame = stopped_in;
    for _ in 0..4 {
        page.send(json!({ "control": "step-frame" }));
        page.until("one frame further", |p| p.paused() && p.frame() > frame);
        assert_eq!(page.frame(), frame + 1);
        frame += 1;
        assert_eq!(game.frames.load(Ordering::SeqCst), frame, "the game ran one frame");
        let ticks = frame / 3;
        page.until("the frame's tick in the window", |p| p.window().last_tick() == ticks);
        assert_eq!(game.ticks.load(Ordering::SeqCst), ticks);
    }

    // 3. A step to the agent's next event: the frames until it ticks again, stopped at its start.
    let events_before = page.window().events.len();
    let ticks_before = page.window().last_tick();
    let stops_before = page.stops.len();
    page.send(json!({ "control": "step-event" }));
    page.until("at the next event", |p| p.stops.len() > stops_before && p.paused());
    let stop = page.stops[stops_before].clone();
    assert_eq!(
        (stop["reason"].as_str(), stop["tick"].as_u64(), stop["event"].as_u64()),
        (Some("nextEvent"), Some(ticks_before + 1), Some(0)),
        "the next event is the start of the agent's next tick"
    );
    let next_ticking_frame = (frame / 3 + 1) * 3;
    assert_eq!(
        page.frame(),
        next_ticking_frame,
        "the frames up to the agent's next tick"
    );
    assert_eq!(game.frames.load(Ordering::SeqCst), next_ticking_frame);
    page.until("the tick in the window", |p| p.window().last_tick() == ticks_before + 1);
    assert!(matches!(
        page.window().events[events_before],
        Event::TickStarted { tick, .. } if tick == ticks_before + 1
    ));

    // 4. Any failure of the agent: Chase's breakpoint cleared, the game resumed.
    page.send(json!({ "break": { "node": chase, "on": "enter", "set": false } }));
    page.send(json!({ "anyFailure": true }));
    page.send(json!({ "control": "resume" }));
    let stops_before = page.stops.len();
    let events_before = page.window().events.len();
    page.until("stopped by a failure", |p| {
        p.stops.len() > stops_before
            && p.paused()
            && p.window().last_tick() >= p.stops[stops_before]["tick"].as_u64().unwrap()
    });
    let stop = page.stops[stops_before].clone();
    assert_eq!(stop["reason"], "anyFailure");
    let failed = stopped_at(page.window(), &stop);
    assert!(
        matches!(
            failed,
            Event::Ticked {
                status: Status::Failure,
                ..
            }
        ),
        "{failed:?}"
    );
    let first_failure = page.window().events[events_before..].iter().find(|e| {
        matches!(
            e,
            Event::Ticked {
                status: Status::Failure,
                ..
            }
        )
    });
    assert_eq!(first_failure, Some(&failed), "the first failure after the resume");

    // 5. A page that goes lets the game run free.
    drop(page);
    game.runs_on_then_quits(10);
}

#[test]
fn a_bad_command_is_answered_with_what_is_wrong() {
    let (studio, _observer) = common::live::serve_guard("guard");
    let mut page = Page::follow(studio.addr(), 0);
    let nodes = Guard::NODES.len();
    for (command, error) in [
        (
            json!({ "control": "jump" }),
            "no control \"jump\": pause, resume, step-frame or step-event".to_owned(),
        ),
        (
            json!({ "break": { "node": nodes, "on": "enter" } }),
            format!("a breakpoint needs a node id below {nodes}: {{\"node\":{nodes},\"on\":\"enter\"}}"),
        ),
        (
            json!({ "break": { "node": 0, "on": "exit" } }),
            "a breakpoint is on enter, success, failure, running or halt: {\"node\":0,\"on\":\"exit\"}".to_owned(),
        ),
    ] {
        page.send(command);
        let answer = loop {
            let message = page.next();
            if message.get("error").is_some() {
                break message;
            }
        };
        assert_eq!(answer, json!({ "error": error }));
    }
}

#[test]
fn in_the_page_a_breakpoint_stops_the_game_at_the_traced_event_and_steps_go_one_frame_or_to_the_next_event() {
    use common::browser::{attribute, clear, click, open, search_node, wait_for, with_browser};
    with_browser("debugger", |client| async move {
        let (studio, observer) = common::live::serve_guard("guard");
        let chase = Guard::NODES.iter().position(|n| n.label == "Chase").unwrap();
        open(&client, &format!("{}#agent=0", studio.url())).await;
        wait_for(&client, "body[data-following='0'] #game-controls:not([hidden])").await;
        wait_for(&client, "#tree [data-id]").await;
        // Select Chase and set a breakpoint on its entering, before the game's first frame.
        search_node(&client, chase).await;
        wait_for(&client, &format!("#position[data-node='{chase}']")).await;
        click(&client, "#agents-tab").await;
        click(&client, "#break-toggle").await;
        wait_for(
            &client,
            &format!("#break-list li[data-node='{chase}'][data-on='enter']"),
        )
        .await;
        let game = Game::start(observer, studio.debugger());

        // The game stops; the page lands on the event, the one the game's own trace has there.
        let body = wait_for(&client, "body[data-stopped-at][data-game-paused='true']").await;
        let at = body.attr("data-stopped-at").await.unwrap().unwrap();
        let (tick, k) = at.split_once(':').unwrap();
        let stop = json!({ "tick": tick.parse::<u64>().unwrap(), "event": k.parse::<u64>().unwrap() });
        assert_eq!(
            stopped_at(&game.trace(), &stop),
            Event::Entered {
                node: NodeId(chase as u32)
            },
            "stopped at {at}"
        );
        assert_eq!(
            (
                attribute(&client, "#position", "data-tick").await.as_deref(),
                attribute(&client, "#position", "data-event").await.as_deref()
            ),
            (Some(tick), Some(k)),
            "the view is on that event"
        );
        let frame: u64 = body.attr("data-game-frame").await.unwrap().unwrap().parse().unwrap();
        assert_eq!(game.frames(), frame, "the game stopped after the frame of the event");

        // Step one frame, twice.
        for next in [frame + 1, frame + 2] {
            click(&client, "#game-step-frame").await;
            wait_for(
                &client,
                &format!("body[data-game-frame='{next}'][data-game-paused='true']"),
            )
            .await;
            assert_eq!(game.frames(), next, "one frame a step");
        }
        // Step to the agent's next event: the start of its next tick, frames later.
        let ticks = game.ticks.load(Ordering::SeqCst);
        click(&client, "#game-step-event").await;
        let next = format!("{}:0", ticks + 1);
        wait_for(
            &client,
            &format!("body[data-stopped-at='{next}'][data-game-paused='true']"),
        )
        .await;
        let ticking = (frame + 3).next_multiple_of(3);
        assert_eq!(game.frames(), ticking, "the frames up to the agent's next tick");
        assert_eq!(
            attribute(&client, "#position", "data-tick").await,
            Some((ticks + 1).to_string())
        );
        // Force the intruder check to fail, once, and step to the agent's next tick:
        // the result is drawn on the node, as the window's context records it.
        let check = Guard::NODES
            .iter()
            .position(|n| n.label == "cond(|p| p.sees_intruder())")
            .unwrap();
        clear(&client, "#search").await;
        search_node(&client, check).await;
        wait_for(&client, &format!("#position[data-node='{check}']")).await;
        click(&client, "#agents-tab").await;
        click(&client, "#force-once").await;
        click(&client, "#force-set").await;
        wait_for(
            &client,
            &format!("#force-list li[data-node='{check}'][data-status='failure']"),
        )
        .await;
        click(&client, "#game-step-event").await;
        wait_for(
            &client,
            &format!("body[data-stopped-at='{}:0'][data-game-paused='true']", ticks + 2),
        )
        .await;
        wait_for(&client, &format!("#tree [data-id='{check}'][data-forced='failure']")).await;
        let trace = game.trace();
        let forced_tick = trace.ticks().find(|t| t.tick == ticks + 2).unwrap();
        assert!(
            forced_tick.events.contains(&Event::Ticked {
                node: NodeId(check as u32),
                status: Status::Failure
            }),
            "the game's own trace has the check failing in that tick"
        );
        common::browser::screenshot(&client, "debugger").await;
        // The breakpoint removed first, so that the resumed game cannot stop
        // at Chase again before the page sees it running (it did once, under load).
        click(
            &client,
            &format!("#break-list li[data-node='{chase}'][data-on='enter'] button"),
        )
        .await;
        wait_for(&client, "#break-list:not(:has(li))").await;
        click(&client, "#game-resume").await;
        wait_for(&client, "body[data-game-paused='false']").await;
        client.close_window().await.ok();
        game.runs_on_then_quits(10);
    });
}

#[test]
fn a_forced_failure_gives_the_same_ticks_as_the_test_kits_stand_in_and_is_recorded() {
    use behaved_studio::FORCED_KEY;
    use behaved_testing::{StandIn, TestTree};
    use common::guard::Post;

    let (studio, mut observer) = common::live::serve_guard("guard");
    let walk = Guard::NODES.iter().position(|n| n.label == "WalkTo(6.0)").unwrap();
    let mut page = Page::follow(studio.addr(), 0);
    // Forced until cleared, from the first tick; and once, later.
    page.send(json!({ "force": { "node": walk, "status": "failure" } }));
    page.until("the result forced", |p| {
        p.last["breaks"]["forces"] == json!([{ "node": walk, "status": "failure", "once": false }])
    });
    // The same tree and world twice: the game's, forced from the live view; the test kit's, with a stand-in.
    let mut tree = Guard::new();
    let mut post = Post::at_start();
    let mut kit = TestTree::new(Guard::new());
    kit.stand_in("WalkTo(6.0)", StandIn::always(Status::Failure)).unwrap();
    let mut kit_post = Post::at_start();
    for tick in 1..=30u32 {
        let now = post.patrol_tick(tick);
        tree.tick_observed(&mut post, now, &mut observer);
        kit_post.patrol_tick(tick);
        kit.tick(&mut kit_post, now);
    }
    page.until("30 ticks in the window", |p| p.window().last_tick() == 30);
    let ours = without_tick_numbers(&page.window().events);
    let kits = without_tick_numbers(&kit.trace().events);
    assert_eq!(ours.len(), kits.len());
    assert!(ours == kits, "event for event, as the stand-in has it");
    assert!(
        ours.contains(&Event::Ticked {
            node: NodeId(walk as u32),
            status: Status::Failure
        }),
        "the forced leaf failed"
    );
    assert_eq!(
        (post.guard, post.alarms),
        (kit_post.guard, kit_post.alarms),
        "the same world"
    );
    // Every tick in which the leaf was forced says so in its context.
    let forced_ticks: Vec<u64> = page
        .window()
        .ticks()
        .filter(|t| {
            t.events.contains(&Event::Ticked {
                node: NodeId(walk as u32),
                status: Status::Failure,
            })
        })
        .map(|t| t.tick)
        .collect();
    assert!(!forced_ticks.is_empty());
    let mut context = page_context(&mut page);
    context.retain(|(_, v)| v.get(FORCED_KEY).is_some());
    let recorded: Vec<u64> = context.iter().map(|(tick, _)| *tick).collect();
    assert_eq!(recorded, forced_ticks);
    assert_eq!(context[0].1[FORCED_KEY], json!([{ "node": walk, "status": "failure" }]));

    // Once: the next tick's call only, then the leaf runs its own code again.
    page.send(json!({ "force": { "node": walk, "clear": true } }));
    page.until("cleared", |p| p.last["breaks"]["forces"] == json!([]));
    let chase = Guard::NODES
        .iter()
        .position(|n| n.label == "cond(|p| p.sees_intruder())")
        .unwrap();
    page.send(json!({ "force": { "node": chase, "status": "success", "once": true } }));
    page.until("forced once", |p| {
        p.last["breaks"]["forces"].as_array().is_some_and(|f| f.len() == 1)
    });
    for tick in 31..=33u32 {
        let now = post.patrol_tick(tick);
        tree.tick_observed(&mut post, now, &mut observer);
    }
    page.until("the once-forced result used up", |p| {
        p.last["breaks"]["forces"] == json!([]) && p.window().last_tick() == 33
    });
    let cond_success = |tick: u64, page: &Page| {
        page.window()
            .ticks()
            .find(|t| t.tick == tick)
            .unwrap()
            .events
            .contains(&Event::Ticked {
                node: NodeId(chase as u32),
                status: Status::Success,
            })
    };
    assert!(cond_success(31, &page), "forced once, in the next tick");
    assert!(!cond_success(32, &page) && !cond_success(33, &page), "and not after");
}

/// The window's context entries as the page holds them: the server's
/// whole window, asked afresh by following again.
fn page_context(page: &mut Page) -> Vec<(u64, Value)> {
    let addr = page.socket.get_ref();
    let addr = match addr {
        MaybeTlsStream::Plain(stream) => stream.peer_addr().unwrap(),
        _ => unreachable!(),
    };
    let mut fresh = Page::follow(addr, 0);
    fresh.until("the whole window", |p| p.last.get("trace").is_some());
    let trace: Trace = serde_json::from_value(fresh.last["trace"].clone()).unwrap();
    trace.context.into_iter().map(|c| (c.tick, c.values)).collect()
}

/// This machine's address on a network interface, as another machine would
/// reach it (no packet is sent), or `None` on a machine with no network.
fn interface_address() -> Option<std::net::IpAddr> {
    let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    socket.connect("192.0.2.1:9").ok()?;
    Some(socket.local_addr().ok()?.ip()).filter(|ip| !ip.is_loopback() && !ip.is_unspecified())
}

/// Follows agent 0 at `addr` with `query`; the hello message.
fn hello(addr: SocketAddr, query: &str) -> (WebSocket<MaybeTlsStream<TcpStream>>, Value) {
    let (mut socket, _) = tungstenite::connect(format!("ws://{addr}/api/live/0{query}")).unwrap();
    let Message::Text(text) = socket.read().unwrap() else {
        panic!("a text message first")
    };
    (socket, serde_json::from_str(&text).unwrap())
}

#[test]
fn another_machine_controls_the_game_only_with_the_secret_the_game_printed() {
    let Some(ip) = interface_address() else {
        eprintln!("skipped: this machine has no network interface to come from");
        return;
    };
    let open = behaved_studio::Studio::serve("0.0.0.0:0").unwrap();
    let _observer = open.agent("guard", Guard::NODES).unwrap();
    let from_elsewhere = SocketAddr::new(ip, open.addr().port());
    assert_eq!(open.control_token(), None);
    let (_, said) = hello(from_elsewhere, "?token=anything");
    assert_eq!(said["mayControl"], false, "not opted in: another machine watches only");

    let studio = behaved_studio::Studio::serve_with_remote_control("0.0.0.0:0").unwrap();
    let _observer = studio.agent("guard", Guard::NODES).unwrap();
    let token = studio.control_token().unwrap().to_owned();
    let from_elsewhere = SocketAddr::new(ip, studio.addr().port());
    let from_here = SocketAddr::from(([127, 0, 0, 1], studio.addr().port()));
    assert_eq!(hello(from_here, "").1["mayControl"], true);
    assert_eq!(hello(from_elsewhere, "").1["mayControl"], false);
    assert_eq!(hello(from_elsewhere, "?token=0123").1["mayControl"], false);
    // Without the secret a command is refused, with what is wrong.
    let (mut socket, _) = hello(from_elsewhere, "");
    socket
        .send(Message::Text(json!({ "control": "pause" }).to_string().into()))
        .unwrap();
    let refused = loop {
        let Message::Text(text) = socket.read().unwrap() else {
            continue;
        };
        let message: Value = serde_json::from_str(&text).unwrap();
        if message.get("error").is_some() {
            break message;
        }
    };
    assert_eq!(
        refused["error"],
        "behaved-studio takes control of the game only from its own machine"
    );
    assert!(!studio.debugger().is_paused());
    // With it, the page pauses the game.
    let (mut socket, said) = hello(from_elsewhere, &format!("?token={token}"));
    assert_eq!(said["mayControl"], true);
    socket
        .send(Message::Text(json!({ "control": "pause" }).to_string().into()))
        .unwrap();
    loop {
        let Message::Text(text) = socket.read().unwrap() else {
            continue;
        };
        let message: Value = serde_json::from_str(&text).unwrap();
        if message["control"]["paused"] == true {
            break;
        }
    }
    assert!(studio.debugger().is_paused());
}

#[test]
fn followers_are_capped_and_a_page_that_goes_makes_room() {
    let (studio, _observer) = common::live::serve_guard("guard");
    let max = behaved_studio::limits::MAX_FOLLOWERS;
    let mut pages: Vec<_> = (0..max).map(|_| hello(studio.addr(), "").0).collect();
    let refused = |addr| match tungstenite::connect(format!("ws://{addr}/api/live/0")) {
        Err(tungstenite::Error::Http(answer)) => Some(answer.status().as_u16()),
        Ok(_) => None,
        Err(e) => panic!("no answer: {e}"),
    };
    assert_eq!(refused(studio.addr()), Some(503), "one page past {max}");
    let mut gone = pages.pop().unwrap();
    gone.close(None).unwrap();
    while gone.read().is_ok() {}
    // The server counts the page out once it has read its close.
    let mut tries = 0;
    while refused(studio.addr()).is_some() {
        tries += 1;
        assert!(tries < 1000, "a page that went never made room");
        std::thread::sleep(Duration::from_millis(5));
    }
}
