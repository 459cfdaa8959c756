//! What a studio agent's observer costs the game per event: with no page
//! following it, and with a page following it over a WebSocket; against the
//! no-op observer. One iteration reports 100 ticks of 18 events (a tick start,
//! 8 nodes entered and ticked, a tick end): ns per event = time / 1,800.
//!
//! ```text
//! cargo bench -p behaved-studio --bench observer
//! ```

use std::hint::black_box;
use std::io::{Read, Write};
use std::net::TcpStream;

use behaved_runtime::{NodeId, NodeInfo, NodeKind, NoopObserver, Observer, Status};
use criterion::{Criterion, Throughput};
use std::time::Duration;

/// The events of one iteration.
const EVENTS: u64 = 100 * 18;

/// A sequence of 7 actions.
const NODES: &[NodeInfo] = &{
    let mut nodes = [NodeInfo {
        id: NodeId(0),
        parent: None,
        kind: NodeKind::Sequence,
        label: "sequence",
        line: 1,
    }; 8];
    let mut i = 1;
    while i < 8 {
        nodes[i] = NodeInfo {
            id: NodeId(i as u32),
            parent: Some(NodeId(0)),
            kind: NodeKind::Action,
            label: "Act",
            line: 2,
        };
        i += 1;
    }
    nodes
};

/// 100 ticks' events into `observer`.
fn report<O: Observer>(observer: &mut O) {
    for t in 0..100 {
        observer.tick_started(black_box(f64::from(t)));
        for n in 0..8 {
            observer.entered(black_box(NodeId(n)));
            observer.ticked(black_box(NodeId(n)), black_box(Status::Running));
        }
        observer.tick_finished(black_box(Status::Running));
    }
}

/// Follows agent 0 of the studio at `addr` like a page: a WebSocket whose
/// messages a thread reads and discards.
fn follow(addr: std::net::SocketAddr) {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET /api/live/0 HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    .unwrap();
    let mut first = [0; 12];
    stream.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"HTTP/1.1 101", "the studio accepted the WebSocket");
    std::thread::spawn(move || {
        let mut sink = [0; 1 << 16];
        while stream.read(&mut sink).is_ok_and(|n| n > 0) {}
    });
    // Following starts when the upgrade completes, just after the answer.
    std::thread::sleep(Duration::from_millis(200));
}

fn observer(c: &mut Criterion) {
    let mut group = c.benchmark_group("studio_observer_1800_events");
    group.throughput(Throughput::Elements(EVENTS));
    group.bench_function("noop", |b| b.iter(|| report(&mut NoopObserver)));

    let studio = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
    let mut agent = studio.agent("bench", NODES).unwrap();
    group.bench_function("agent_no_page", |b| b.iter(|| report(&mut agent)));
    assert!(!agent.is_recording());

    follow(studio.addr());
    report(&mut agent);
    assert!(agent.is_recording(), "the page follows");
    group.bench_function("agent_page_following", |b| b.iter(|| report(&mut agent)));
    println!("events dropped while followed: {}", agent.dropped_events());
    group.finish();
}

fn main() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    observer(&mut c);
    c.final_summary();
}
