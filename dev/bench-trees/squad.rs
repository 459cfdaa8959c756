//! T4, a squad soldier: the kinds T1-T3 lack (parallels, timing, loops, a
//! subtree, hooks) in a 44-node tree, ticked at 10 Hz:
//!
//! ```text
//! reactive selector                    (on_tick)
//! ├── reactive sequence                regroup while ordered
//! │   └── parallel(all) { Regroup, delay { Radio }, Reload, sequence { wait, CallOut } }
//! ├── sequence                         hurt: the Medic subtree (on_enter, on_exit)
//! │   └── Medic: sequence { TakeCover, force_success { timeout { Bandage } }, wait }
//! ├── reactive sequence                the enemy is in sight
//! │   └── parallel(main)               (on_enter, on_exit)
//! │       ├── sequence { retry(2) { timeout { Aim } }, selector { repeat(3) { Fire, wait }, cooldown { Reload } } }
//! │       ├── Track
//! │       └── cooldown { CallOut }      (on_success)
//! └── parallel(main)                   patrol while scanning (on_enter, on_exit)
//!     ├── repeat(4) { sequence { Patrol, wait, LookAround } }
//!     └── Scan                         (on_tick)
//! ```
//!
//! The scripted world makes every branch win in turn, interrupts each of them
//! (halts), lets the timeouts fire and the repeats finish. Every action counts
//! its enters and halts, every hook its runs, in the context. The same tree
//! compiled by `behave!` and written by hand; `tests/twin_squad.rs` checks they
//! agree.

use behaved::Status::{Failure, Running, Success};
use behaved::prelude::*;

/// The soldier's view of the world, and what he did.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SquadCtx {
    /// Hit points (hurt below 30).
    pub health: u32,
    /// An enemy is in sight.
    pub enemy: bool,
    /// The enemy is behind cover: aiming makes no progress.
    pub enemy_covered: bool,
    /// The squad leader orders a regroup.
    pub regroup: bool,
    /// Steps away from the rally point.
    pub pos: u32,
    /// Rounds in the magazine.
    pub ammo: u32,
    /// Rounds fired.
    pub shots: u32,
    /// Ticks of each action's current activation, by leaf index.
    pub progress: [u32; LEAVES],
    /// `Action::enter` calls, by leaf index.
    pub entered: [u32; LEAVES],
    /// `Action::halt` calls, by leaf index.
    pub halted: [u32; LEAVES],
    /// Runs of each hook (the numbers in the tree).
    pub hooks: [u32; 12],
}

/// Number of action leaf types (their indices in [`SquadCtx`]'s counters
/// are the numbers in `actions!` below).
pub const LEAVES: usize = 12;

/// `Success` when `done`, else `Running`.
#[inline(always)]
fn done(done: bool) -> Status {
    if done { Success } else { Running }
}

/// Declares the action leaves: a unit type each, whose `enter` and `halt`
/// count themselves in the context and whose `tick` counts its progress
/// (`n`: the ticks of this activation, this one included) before its own work.
macro_rules! actions {
    ($($(#[doc = $doc:literal])* $name:ident = $i:literal, |$c:ident, $n:pat_param| $tick:expr;)*) => {$(
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $name;
        impl Action<SquadCtx> for $name {
            #[inline]
            fn enter(&mut self, c: &mut SquadCtx) {
                c.entered[$i] += 1;
                c.progress[$i] = 0;
            }
            #[inline]
            fn tick(&mut self, $c: &mut SquadCtx) -> Status {
                $c.progress[$i] += 1;
                let $n = $c.progress[$i];
                $tick
            }
            #[inline]
            fn halt(&mut self, c: &mut SquadCtx) {
                c.halted[$i] += 1;
            }
        }
    )*};
}

actions! {
    /// Two ticks to reach cover.
    TakeCover = 0, |_c, n| done(n >= 2);
    /// Three hit points a tick, until 50.
    Bandage = 1, |c, _| {
        c.health = (c.health + 3).min(100);
        done(c.health >= 50)
    };
    /// Three ticks of aim at an enemy not behind cover.
    Aim = 2, |c, n| done(!c.enemy_covered && n >= 3);
    /// One round; fails on an empty magazine.
    Fire = 3, |c, _| if c.ammo == 0 {
        Failure
    } else {
        c.ammo -= 1;
        c.shots += 1;
        Success
    };
    /// A full magazine.
    Reload = 4, |c, _| {
        c.ammo = 4;
        Success
    };
    /// Keeps the enemy in sight; never ends.
    Track = 5, |_c, _| Running;
    /// Calls the enemy's position out.
    CallOut = 6, |_c, _| Success;
    /// A step a tick back to the rally point.
    Regroup = 7, |c, _| {
        c.pos = c.pos.saturating_sub(1);
        done(c.pos == 0)
    };
    /// Two ticks on the radio.
    Radio = 8, |_c, n| done(n >= 2);
    /// A leg of the patrol: three steps away from the rally point.
    Patrol = 9, |c, n| {
        c.pos += 1;
        done(n >= 3)
    };
    /// A look around.
    LookAround = 10, |_c, _| Success;
    /// Scans the surroundings; never ends.
    Scan = 11, |_c, _| Running;
}

/// Declares the conditions: a unit type each, reading the context.
macro_rules! conditions {
    ($($(#[doc = $doc:literal])* $name:ident, |$c:ident| $check:expr;)*) => {$(
        $(#[doc = $doc])*
        #[derive(Debug, Clone, Copy, Default)]
        pub struct $name;
        impl Condition<SquadCtx> for $name {
            #[inline]
            fn check(&self, $c: &SquadCtx) -> bool {
                $check
            }
        }
    )*};
}

conditions! {
    /// The squad leader orders a regroup.
    RegroupOrdered, |c| c.regroup;
    /// Below 30 hit points.
    Hurt, |c| c.health < 30;
    /// An enemy is in sight.
    EnemyVisible, |c| c.enemy;
}

behave! {
    /// T4's subtree: take cover, bandage (for a second at most), catch breath.
    pub tree Medic for SquadCtx {
        sequence {
            TakeCover,
            force_success {
                #[on_exit(|c| c.hooks[10] += 1)]
                timeout(1.0) { Bandage }
            },
            wait(0.5),
        }
    }

    /// T4 compiled.
    pub tree Squad for SquadCtx {
        #[on_tick(|c| c.hooks[0] += 1)]
        reactive selector {
            reactive sequence {
                cond(RegroupOrdered),
                parallel(all) {
                    Regroup,
                    delay(0.3) { Radio },
                    Reload,
                    sequence { wait(0.4), CallOut },
                },
            },
            sequence {
                cond(Hurt),
                #[on_enter(|c| c.hooks[1] += 1)]
                #[on_exit(|c| c.hooks[2] += 1)]
                subtree(Medic),
            },
            reactive sequence {
                cond(EnemyVisible),
                #[on_enter(|c| c.hooks[3] += 1)]
                #[on_exit(|c| c.hooks[4] += 1)]
                parallel(main) {
                    sequence {
                        #[on_failure(|c| c.hooks[5] += 1)]
                        retry(2) { timeout(0.5) { Aim } },
                        selector {
                            #[on_tick(|c| c.hooks[6] += 1)]
                            repeat(3) { sequence { Fire, wait(0.2) } },
                            cooldown(2.0) { Reload },
                        },
                    },
                    Track,
                    #[on_success(|c| c.hooks[7] += 1)]
                    cooldown(3.0) { CallOut },
                },
            },
            #[on_enter(|c| c.hooks[8] += 1)]
            #[on_exit(|c| c.hooks[9] += 1)]
            parallel(main) {
                repeat(4) { sequence { Patrol, wait(0.2), LookAround } },
                #[on_tick(|c| c.hooks[11] += 1)]
                Scan,
            },
        }
    }
}

/// Seconds per tick: 10 Hz.
pub const DT: f64 = 0.1;

/// Ticks of one round of the script.
pub const ROUND: u32 = 160;

/// The scripted world at tick `tick` (its time is `tick * DT`). Each round of
/// 160 ticks: patrol; in odd rounds a wound at 19 whose treatment a short
/// regroup order (from 20) interrupts; an enemy in sight from tick 30 to 80 (out of
/// sight for three ticks at 55, behind cover for the first 0 to 15 ticks, so
/// that aiming times out and the retry fails), a wound at 45 in every third
/// round (the medic interrupts the fight); a wound between 72 and 91 whose
/// treatment the regroup order (90 to 120) may interrupt; a wound at 130.
/// Rounds differ in how long the cover, the short order and the wounds last.
#[inline]
pub fn script(tick: u32, ctx: &mut SquadCtx) {
    let (t, round) = (tick % ROUND, tick / ROUND);
    ctx.enemy = (30..80).contains(&t) && !(55..58).contains(&t);
    ctx.enemy_covered = (30..30 + round % 16).contains(&t);
    ctx.regroup = (90..120).contains(&t) || (20..22 + round % 4).contains(&t);
    if t == 0 {
        ctx.health = 100;
    } else if (t == 19 && round % 2 == 1) || (t == 45 && round % 3 == 0) || t == 72 + round % 20 || t == 130 {
        ctx.health = 5 + 4 * (round % 6);
    }
}

/// T4 written by hand, correct for any leaf statuses: a resume byte per
/// sequence and selector (running child + 1, 0 when idle), a running and a
/// done mask per parallel, a count per loop and a time per timer, as plain
/// fields and methods; the Medic subtree written in place. The same leaves,
/// called through the same traits, and the same hooks in the same order.
#[derive(Debug, Default)]
pub struct SquadByHand {
    root: u8,
    regroup: u8,
    rally_run: u8,
    rally_ok: u8,
    radio_delay: (f64, bool),
    report: u8,
    report_wait: f64,
    hurt: u8,
    medic: u8,
    bandage_start: f64,
    breath_wait: f64,
    combat: u8,
    track_state: Side,
    call_state: Side,
    attack: u8,
    aim_tries: u8,
    aim_start: f64,
    shoot: u8,
    volleys: u8,
    volley: u8,
    volley_wait: f64,
    reload_last: LastDone,
    callout_last: LastDone,
    scan_state: Side,
    legs: u8,
    leg: u8,
    leg_wait: f64,
    regroup_leaf: Regroup,
    radio: Radio,
    rally_reload: Reload,
    report_call: CallOut,
    cover: TakeCover,
    bandage: Bandage,
    aim: Aim,
    fire: Fire,
    reload: Reload,
    track: Track,
    callout: CallOut,
    patrol: Patrol,
    look: LookAround,
    scan: Scan,
}

/// A side child of a `parallel(main)`: idle, running, or done for this
/// activation (the main child's state is its own).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Side {
    #[default]
    Idle,
    Running,
    Done,
}

impl Side {
    /// The state after a tick that returned `s`.
    #[inline(always)]
    fn after(s: Status) -> Side {
        if s == Running { Side::Running } else { Side::Done }
    }
}

/// A cooldown's last completion; far in the past at first, as `behave!` has it.
#[derive(Debug, Clone, Copy)]
struct LastDone(f64);

impl Default for LastDone {
    fn default() -> Self {
        LastDone(f64::MIN)
    }
}

/// One child of a sequence whose resume byte is `self.$resume` (read into
/// `$r`): child `$k` (1-based) runs when the sequence resumes at or before
/// it; anything but `Success` records where to resume and returns.
macro_rules! step {
    ($this:ident.$resume:ident, $r:ident, $k:literal, $tick:expr) => {
        if $r <= $k {
            let s = $tick;
            if s != Success {
                $this.$resume = resume_at(s, $k);
                return s;
            }
        }
    };
}

/// A node's tick `$tick` between its `on_enter` hook (`hooks[$enter]`, when
/// `$entering`) and its `on_exit` hook (`hooks[$exit]`, when it completes).
macro_rules! hooked {
    ($ctx:ident, $entering:expr, $enter:literal, $exit:literal, $tick:expr) => {{
        if $entering {
            $ctx.hooks[$enter] += 1;
        }
        let s = $tick;
        if s != Running {
            $ctx.hooks[$exit] += 1;
        }
        s
    }};
}

/// `resume` for a child that returned `s`: `k` if it runs, 0 otherwise.
#[inline(always)]
fn resume_at(s: Status, k: u8) -> u8 {
    if s == Running { k } else { 0 }
}

/// `repeat(n)` after its body returned `s`, its count of successes in
/// `count`: `Some(status)` when the repeat returns, `None` when the next
/// iteration starts in this tick.
#[inline(always)]
fn repeated(count: &mut u8, n: u8, s: Status) -> Option<Status> {
    if s == Success {
        *count += 1;
        if *count < n {
            return None;
        }
    }
    if s != Running {
        *count = 0;
    }
    Some(s)
}

/// Ticks an action, entering it first on its activation's first tick.
#[inline(always)]
fn act<A: Action<SquadCtx>>(leaf: &mut A, ctx: &mut SquadCtx, entering: bool) -> Status {
    if entering {
        leaf.enter(ctx);
    }
    leaf.tick(ctx)
}

/// `wait(d)`: Running on entry, then Success once `d` has passed.
#[inline(always)]
fn wait(start: &mut f64, entering: bool, now: f64, d: f64) -> Status {
    if entering {
        *start = now;
        Running
    } else {
        done(now - *start >= d)
    }
}

/// `cooldown(d) { leaf }`.
#[inline(always)]
fn cooled<A: Action<SquadCtx>>(
    last: &mut LastDone,
    leaf: &mut A,
    ctx: &mut SquadCtx,
    e: bool,
    now: f64,
    d: f64,
) -> Status {
    if e && now - last.0 < d {
        return Failure;
    }
    let s = act(leaf, ctx, e);
    if s != Running {
        last.0 = now;
    }
    s
}

/// `timeout(d) { leaf }` whose start is `start`.
#[inline(always)]
fn timed<A: Action<SquadCtx>>(start: &mut f64, leaf: &mut A, ctx: &mut SquadCtx, e: bool, now: f64, d: f64) -> Status {
    if !e && now - *start >= d {
        leaf.halt(ctx);
        return Failure;
    }
    if e {
        *start = now;
    }
    act(leaf, ctx, e)
}

impl SquadByHand {
    /// Ticks once at time `now`: the reactive root and its `on_tick` hook.
    #[inline(always)]
    pub fn tick_at(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        let r = self.root;
        let s = 'root: {
            let s = self.regroup_branch(ctx, now);
            if s != Failure {
                break 'root self.settle(ctx, r, s, 1);
            }
            let s = self.hurt_branch(ctx, now);
            if s != Failure {
                break 'root self.settle(ctx, r, s, 2);
            }
            let s = self.combat_branch(ctx, now);
            if s != Failure {
                break 'root self.settle(ctx, r, s, 3);
            }
            let s = self.patrol_branch(ctx, now, r != 4);
            self.root = resume_at(s, 4);
            s
        };
        ctx.hooks[0] += 1;
        s
    }

    /// The root settles on child `k` (1-based): halts a later child that ran.
    #[inline(always)]
    fn settle(&mut self, ctx: &mut SquadCtx, r: u8, s: Status, k: u8) -> Status {
        if r > k {
            self.halt_root_child(ctx, r);
        }
        self.root = resume_at(s, k);
        s
    }

    /// `reactive sequence { cond(RegroupOrdered), parallel(all) { .. } }`.
    #[inline(always)]
    fn regroup_branch(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        if !RegroupOrdered.check(ctx) {
            if self.regroup == 2 {
                let run = self.rally_run;
                (self.rally_run, self.rally_ok) = (0, 0);
                self.halt_rally(ctx, run);
            }
            self.regroup = 0;
            return Failure;
        }
        let s = self.rally(ctx, now);
        self.regroup = resume_at(s, 2);
        s
    }

    /// `parallel(all) { Regroup, delay(0.3) { Radio }, Reload, sequence { wait(0.4), CallOut } }`.
    #[inline(always)]
    fn rally(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        let (mut run, mut ok) = (self.rally_run, self.rally_ok);
        for b in [1u8, 2, 4, 8] {
            if ok & b != 0 {
                continue;
            }
            let e = run & b == 0;
            let s = match b {
                1 => act(&mut self.regroup_leaf, ctx, e),
                2 => self.radio_after_delay(ctx, now, e),
                4 => act(&mut self.rally_reload, ctx, e),
                _ => self.report_in(ctx, now),
            };
            match s {
                Running => run |= b,
                Success => {
                    run &= !b;
                    ok |= b;
                }
                Failure => {
                    (self.rally_run, self.rally_ok) = (0, 0);
                    self.halt_rally(ctx, run & !b);
                    return Failure;
                }
            }
        }
        if ok == 15 {
            (self.rally_run, self.rally_ok) = (0, 0);
            return Success;
        }
        (self.rally_run, self.rally_ok) = (run, ok);
        Running
    }

    /// `delay(0.3) { Radio }`.
    #[inline(always)]
    fn radio_after_delay(&mut self, ctx: &mut SquadCtx, now: f64, e: bool) -> Status {
        if e {
            self.radio_delay = (now, false);
        }
        let (start, started) = self.radio_delay;
        if !started && now - start < 0.3 {
            return Running;
        }
        self.radio_delay.1 = true;
        let s = act(&mut self.radio, ctx, !started);
        if s != Running {
            self.radio_delay.1 = false;
        }
        s
    }

    /// `sequence { wait(0.4), CallOut }`.
    #[inline(always)]
    fn report_in(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        let r = self.report;
        step!(self.report, r, 1, wait(&mut self.report_wait, r != 1, now, 0.4));
        let s = act(&mut self.report_call, ctx, r != 2);
        self.report = resume_at(s, 2);
        s
    }

    /// `sequence { cond(Hurt), subtree(Medic) }`, the subtree with its hooks.
    #[inline(always)]
    fn hurt_branch(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        if self.hurt == 0 && !Hurt.check(ctx) {
            return Failure;
        }
        let s = hooked!(ctx, self.hurt != 2, 1, 2, self.medic(ctx, now));
        self.hurt = resume_at(s, 2);
        s
    }

    /// Medic: `sequence { TakeCover, force_success { timeout(1.0) { Bandage } }, wait(0.5) }`.
    #[inline(always)]
    fn medic(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        let r = self.medic;
        step!(self.medic, r, 1, act(&mut self.cover, ctx, r != 1));
        if r <= 2 {
            let s = timed(&mut self.bandage_start, &mut self.bandage, ctx, r != 2, now, 1.0);
            if s == Running {
                self.medic = 2;
                return Running;
            }
            ctx.hooks[10] += 1;
        }
        let s = wait(&mut self.breath_wait, r != 3, now, 0.5);
        self.medic = resume_at(s, 3);
        s
    }

    /// `reactive sequence { cond(EnemyVisible), parallel(main) { .. } }`, the
    /// parallel with its hooks.
    #[inline(always)]
    fn combat_branch(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        let r = self.combat;
        if !EnemyVisible.check(ctx) {
            if r == 2 {
                self.halt_fight(ctx);
            }
            self.combat = 0;
            return Failure;
        }
        let s = hooked!(ctx, r != 2, 3, 4, self.fight(ctx, now));
        self.combat = resume_at(s, 2);
        s
    }

    /// `parallel(main) { attack, Track, cooldown(3.0) { CallOut } }`.
    #[inline(always)]
    fn fight(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        let main = self.attack(ctx, now);
        if main != Running {
            self.halt_fight_others(ctx);
            return main;
        }
        if self.track_state != Side::Done {
            let s = act(&mut self.track, ctx, self.track_state == Side::Idle);
            self.track_state = Side::after(s);
        }
        if self.call_state != Side::Done {
            let e = self.call_state == Side::Idle;
            let s = cooled(&mut self.callout_last, &mut self.callout, ctx, e, now, 3.0);
            if s == Success {
                ctx.hooks[7] += 1;
            }
            self.call_state = Side::after(s);
        }
        Running
    }

    /// `sequence { retry(2) { timeout(0.5) { Aim } }, selector { .. } }`.
    #[inline(always)]
    fn attack(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        let r = self.attack;
        step!(self.attack, r, 1, self.aim(ctx, now, r != 1));
        let s = self.shoot(ctx, now);
        self.attack = resume_at(s, 2);
        s
    }

    /// `retry(2) { timeout(0.5) { Aim } }` with its `on_failure` hook.
    #[inline(always)]
    fn aim(&mut self, ctx: &mut SquadCtx, now: f64, mut e: bool) -> Status {
        loop {
            match timed(&mut self.aim_start, &mut self.aim, ctx, e, now, 0.5) {
                Running => return Running,
                Failure => {
                    self.aim_tries += 1;
                    if self.aim_tries >= 2 {
                        self.aim_tries = 0;
                        ctx.hooks[5] += 1;
                        return Failure;
                    }
                    e = true;
                }
                Success => {
                    self.aim_tries = 0;
                    return Success;
                }
            }
        }
    }

    /// `selector { repeat(3) { sequence { Fire, wait(0.2) } }, cooldown(2.0) { Reload } }`,
    /// the repeat with its `on_tick` hook.
    #[inline(always)]
    fn shoot(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        let r = self.shoot;
        if r <= 1 {
            let s = loop {
                let s = self.volley(ctx, now);
                if let Some(s) = repeated(&mut self.volleys, 3, s) {
                    break s;
                }
            };
            ctx.hooks[6] += 1;
            if s != Failure {
                self.shoot = resume_at(s, 1);
                return s;
            }
        }
        let s = cooled(&mut self.reload_last, &mut self.reload, ctx, r != 2, now, 2.0);
        self.shoot = resume_at(s, 2);
        s
    }

    /// `sequence { Fire, wait(0.2) }`.
    #[inline(always)]
    fn volley(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        let r = self.volley;
        step!(self.volley, r, 1, act(&mut self.fire, ctx, r != 1));
        let s = wait(&mut self.volley_wait, r != 2, now, 0.2);
        self.volley = resume_at(s, 2);
        s
    }

    /// `parallel(main) { repeat(4) { .. }, Scan }` with its hooks and Scan's.
    #[inline(always)]
    fn patrol_branch(&mut self, ctx: &mut SquadCtx, now: f64, entering: bool) -> Status {
        if entering {
            ctx.hooks[8] += 1;
        }
        let main = self.legs(ctx, now);
        if main != Running {
            self.halt_scan(ctx);
            ctx.hooks[9] += 1;
            return main;
        }
        if self.scan_state != Side::Done {
            let s = act(&mut self.scan, ctx, self.scan_state == Side::Idle);
            ctx.hooks[11] += 1;
            self.scan_state = Side::after(s);
        }
        Running
    }

    /// `repeat(4) { sequence { Patrol, wait(0.2), LookAround } }`.
    #[inline(always)]
    fn legs(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        loop {
            let s = self.leg(ctx, now);
            if let Some(s) = repeated(&mut self.legs, 4, s) {
                return s;
            }
        }
    }

    /// `sequence { Patrol, wait(0.2), LookAround }`.
    #[inline(always)]
    fn leg(&mut self, ctx: &mut SquadCtx, now: f64) -> Status {
        let r = self.leg;
        step!(self.leg, r, 1, act(&mut self.patrol, ctx, r != 1));
        step!(self.leg, r, 2, wait(&mut self.leg_wait, r != 2, now, 0.2));
        let s = act(&mut self.look, ctx, r != 3);
        self.leg = resume_at(s, 3);
        s
    }

    /// Halts the running child `r` (1-based, after the first) of the root,
    /// with its hooks.
    #[inline(never)]
    fn halt_root_child(&mut self, ctx: &mut SquadCtx, r: u8) {
        match r {
            2 => {
                if self.hurt == 2 {
                    match self.medic {
                        1 => self.cover.halt(ctx),
                        2 => {
                            self.bandage.halt(ctx);
                            ctx.hooks[10] += 1;
                        }
                        _ => {}
                    }
                    self.medic = 0;
                    ctx.hooks[2] += 1;
                }
                self.hurt = 0;
            }
            3 => {
                if self.combat == 2 {
                    self.halt_fight(ctx);
                }
                self.combat = 0;
            }
            _ => {
                // The patrol runs, so its main child (the legs) does.
                self.legs = 0;
                match self.leg {
                    1 => self.patrol.halt(ctx),
                    3 => self.look.halt(ctx),
                    _ => {}
                }
                self.leg = 0;
                self.halt_scan(ctx);
                ctx.hooks[9] += 1;
            }
        }
    }

    /// Halts the running children (mask `run`) of the regroup's parallel.
    #[inline(never)]
    fn halt_rally(&mut self, ctx: &mut SquadCtx, run: u8) {
        if run & 1 != 0 {
            self.regroup_leaf.halt(ctx);
        }
        if run & 2 != 0 && self.radio_delay.1 {
            self.radio_delay.1 = false;
            self.radio.halt(ctx);
        }
        if run & 4 != 0 {
            self.rally_reload.halt(ctx);
        }
        if run & 8 != 0 {
            if self.report == 2 {
                self.report_call.halt(ctx);
            }
            self.report = 0;
        }
    }

    /// Halts the running fight (the combat's parallel; so its main child,
    /// the attack, runs), with its exit hook.
    #[inline(never)]
    fn halt_fight(&mut self, ctx: &mut SquadCtx) {
        match self.attack {
            1 => {
                self.aim_tries = 0;
                self.aim.halt(ctx);
            }
            2 => {
                match self.shoot {
                    1 => {
                        self.volleys = 0;
                        if self.volley == 1 {
                            self.fire.halt(ctx);
                        }
                        self.volley = 0;
                    }
                    2 => self.reload.halt(ctx),
                    _ => {}
                }
                self.shoot = 0;
            }
            _ => {}
        }
        self.attack = 0;
        self.halt_fight_others(ctx);
        ctx.hooks[4] += 1;
    }

    /// Halts the fight's running side children; all are idle after.
    #[inline(never)]
    fn halt_fight_others(&mut self, ctx: &mut SquadCtx) {
        if self.track_state == Side::Running {
            self.track.halt(ctx);
        }
        if self.call_state == Side::Running {
            self.callout.halt(ctx);
        }
        (self.track_state, self.call_state) = (Side::Idle, Side::Idle);
    }

    /// Halts the patrol's Scan if it runs; it is idle after.
    #[inline(always)]
    fn halt_scan(&mut self, ctx: &mut SquadCtx) {
        if self.scan_state == Side::Running {
            self.scan.halt(ctx);
        }
        self.scan_state = Side::Idle;
    }
}
