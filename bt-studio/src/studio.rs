//! [`Studio`]: what a game embeds to serve the live view of its agents.

use std::io;
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::sync::Arc;

use behaved_observe::{Error, NodeRow};

use crate::live::control::Debugger;
use crate::live::{ObservedAgent, Registry, Reload};

/// A studio serving the live view of a running game's agents.
///
/// ```no_run
/// # use behaved::prelude::*;
/// # struct Ctx;
/// # behave! { tree Dog for Ctx { sequence { running } } }
/// let studio = behaved_studio::Studio::serve("127.0.0.1:7878")?;
/// println!("open {}", studio.url());
/// let mut dog = Dog::new();
/// let mut observer = studio.agent("dog#3", Dog::NODES)?;
/// loop {
///     dog.tick_observed(&mut Ctx, 0.0, &mut observer);
///     # break;
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct Studio {
    registry: Arc<Registry>,
    addr: SocketAddr,
}

impl Studio {
    /// Serves the live view at `addr` (use a loopback address: `127.0.0.1:0`
    /// picks a free port) on a thread of its own.
    pub fn serve(addr: impl ToSocketAddrs) -> io::Result<Studio> {
        Studio::start(addr, None, false)
    }

    /// [`Studio::serve`], and pages on other machines may control the game
    /// too (pause, step, breakpoints, forced results: see
    /// [`Studio::debugger`]) when they send a secret made now, which this
    /// prints on standard error with the URL to open (`#token=` the
    /// secret), as notebook servers do, and [`Studio::control_token`]
    /// returns. Serve it on an address other machines reach
    /// (`0.0.0.0:7878`). Without the secret a page from elsewhere watches only.
    pub fn serve_with_remote_control(addr: impl ToSocketAddrs) -> io::Result<Studio> {
        let studio = Studio::start(addr, None, true)?;
        if let Some(token) = studio.control_token() {
            eprintln!(
                "behaved-studio: the live view at {}; to control the game from another machine, open \
                 http://<this machine>:{}/#token={token}",
                studio.url(),
                studio.addr.port()
            );
        }
        Ok(studio)
    }

    /// The secret with which a page on another machine may control the game
    /// ([`Studio::serve_with_remote_control`]); `None` when the game did not opt in.
    pub fn control_token(&self) -> Option<&str> {
        self.registry.control_secret.as_deref()
    }

    /// [`Studio::serve`], with the tree editor at `/edit`: each tree saved
    /// there that the loader accepts also comes to the game, which takes it
    /// with [`Studio::take_reload`] and loads it into its agents (behaved-interp's
    /// `Agent::replace_definition`), telling each agent's observer
    /// ([`ObservedAgent::replace_nodes`](crate::ObservedAgent::replace_nodes)): the live view then shows the new tree.
    ///
    /// ```no_run
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let editor = behaved_studio::Editor::new("trees/guard.json");
    /// let studio = behaved_studio::Studio::serve_with_editor("127.0.0.1:7878", editor)?;
    /// println!("edit the guard at {}edit", studio.url());
    /// // Each frame:
    /// if let Some(reload) = studio.take_reload() {
    ///     println!("{} was saved: load it with the game's Registry", reload.name);
    /// }
    /// # Ok(())
    /// # }
    /// ```
    pub fn serve_with_editor(addr: impl ToSocketAddrs, editor: crate::Editor) -> io::Result<Studio> {
        Studio::start(addr, Some(editor), false)
    }

    fn start(addr: impl ToSocketAddrs, editor: Option<crate::Editor>, remote_control: bool) -> io::Result<Studio> {
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        let registry = Arc::new(Registry {
            control_secret: remote_control.then(crate::this_machine::new_secret),
            ..Registry::default()
        });
        let served = Arc::clone(&registry);
        let editor = editor.map(|editor| {
            let reloads = Arc::clone(&registry);
            let hook = crate::edit::SaveHook(Arc::new(move |name: &str, tree: &str| {
                reloads.queue_reload(Reload {
                    name: name.to_owned(),
                    tree: tree.to_owned(),
                });
                Ok(())
            }));
            crate::edit::embedded_editor_router(editor.with_save_hook(hook))
        });
        let app = crate::live::routes::live_router(served, editor);
        std::thread::Builder::new()
            .name("behaved-studio".to_owned())
            .spawn(move || crate::server::serve_blocking(listener, app))?;
        Ok(Studio { registry, addr })
    }

    /// The oldest tree saved in the editor that the game has not taken yet
    /// (see [`Studio::serve_with_editor`]), or pushed by a separate editor
    /// (`behaved-studio edit tree.json --push URL`, URL being [`Studio::url`]).
    /// Never waits. A newer save of a file replaces its tree not yet taken;
    /// a game that takes none keeps the newest trees of at most 16 files and
    /// 64 MiB (and always the newest tree), the oldest going first.
    pub fn take_reload(&self) -> Option<Reload> {
        self.registry
            .reloads
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front()
    }

    /// The address served.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's URL.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// The game's handle on control from the live view: call its
    /// [`frame_gate`](Debugger::frame_gate) once a frame, and a page on the
    /// game's machine can pause the game, step it a frame or to its followed
    /// agent's next event, and set breakpoints on that agent's nodes (on
    /// entering, on completing with a status, on a halt, on any failure),
    /// which stop the game after the frame in which the event happened; the
    /// page shows that event. Costs one relaxed atomic load a frame while no
    /// page controls the game.
    pub fn debugger(&self) -> Debugger {
        Debugger {
            control: Arc::clone(&self.registry.control),
        }
    }

    /// Registers an agent whose tree has the node table `nodes` (`MyTree::NODES`
    /// or an interpreted definition's table) and returns the observer to tick
    /// it with (`tick_observed`).
    pub fn agent<R: NodeRow>(&self, name: &str, nodes: &[R]) -> Result<ObservedAgent, Error> {
        self.registry.register(name, nodes)
    }
}
