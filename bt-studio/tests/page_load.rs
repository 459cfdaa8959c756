//! Every app's page loads without an error in the browser's console (no
//! request of a page load fails: the page asks the server its mode instead
//! of probing, and the pages have an icon), and the replay's panels fit
//! their side bar.
//!
//! Needs `chromium` and `chromium-driver` (Debian); without them every test
//! here prints that it was skipped, unless `BEHAVED_STUDIO_REQUIRE_BROWSER=1`.

mod common;

use common::browser::{click, console_errors, open, wait_for, with_browser};
use common::editing::{guard_folder, guard_manifest, serve_editor};
use common::{guard_with_one_event_changed, serve, temp_file, wild_dog_trace};
use fantoccini::Client;

/// Opens `url`, waits for `ready` (a CSS selector), and asserts the console
/// logged no error on the way.
async fn loads_cleanly(client: &Client, url: &str, ready: &str) {
    open(client, url).await;
    wait_for(client, ready).await;
    assert_eq!(console_errors(client).await, Vec::<String>::new(), "opening {url}");
}

#[test]
fn no_app_logs_a_console_error_on_load() {
    with_browser("clean_load", |client| async move {
        // One trace, two traces compared.
        let (a, b, _) = guard_with_one_event_changed();
        let a = temp_file("a.json", &a.to_json().unwrap());
        let url = format!("http://{}/", serve(a.clone()));
        loads_cleanly(&client, &url, "body[data-state='ready']").await;
        let files = behaved_studio::Files::new(a).with_diff(temp_file("b.json", &b.to_json().unwrap()));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        std::thread::spawn(move || behaved_studio::serve_blocking(listener, files));
        loads_cleanly(&client, &url, "#diff:not([hidden])").await;
        // A game's live view, without and with the editor.
        let studio = behaved_studio::Studio::serve("127.0.0.1:0").unwrap();
        let _agent = studio.agent("guard", common::guard::Guard::NODES).unwrap();
        loads_cleanly(&client, &studio.url(), "body[data-mode='live']").await;
        assert!(
            client
                .find(fantoccini::Locator::Css("#live-edit[hidden]"))
                .await
                .is_ok()
        );
        let dir = guard_folder("clean-load");
        let editor = behaved_studio::Editor::new(dir.join("guard.json")).with_leaves(guard_manifest());
        let studio = behaved_studio::Studio::serve_with_editor("127.0.0.1:0", editor.clone()).unwrap();
        loads_cleanly(&client, &studio.url(), "#live-edit:not([hidden])").await;
        loads_cleanly(&client, &format!("{}edit", studio.url()), "body[data-state='ready']").await;
        // The editor on its own.
        let url = format!("http://{}/", serve_editor(editor));
        loads_cleanly(&client, &url, "body[data-state='ready']").await;
    });
}

#[test]
fn the_transitions_table_fits_its_panel() {
    let trace = wild_dog_trace(7, 200);
    let url = format!("http://{}/", serve(temp_file("dog.json", &trace.to_json().unwrap())));
    with_browser("transitions_width", |client| async move {
        open(&client, &url).await;
        click(&client, "#tabs button[data-tab='transitions']").await;
        wait_for(&client, "#transitions-table tbody tr").await;
        let widths = common::browser::eval(
            &client,
            "const panel = document.querySelector('#transitions');
             return [document.querySelector('#transitions-table').getBoundingClientRect().width,
                     panel.clientWidth, panel.scrollWidth];",
        )
        .await;
        let [table, panel, scrolled] = [0, 1, 2].map(|i| widths[i].as_f64().unwrap());
        // The panel's padding is 8px each side.
        assert!(
            table <= panel - 16.0,
            "the table is {table}px wide in a {panel}px panel"
        );
        assert_eq!(scrolled, panel, "the panel scrolls sideways: {widths}");
    });
}
