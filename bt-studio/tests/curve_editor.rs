//! The editor's scores of a `utility` node and a `pick` node's score
//! (issue 25, "the editor edits a curve with a plot of it"), in headless
//! Chromium: each score's curve is shown with its parameters and plotted
//! with the runtime's values (`Curve::eval`), and editing a parameter, a
//! weight or the curve's kind changes the document (and the saved file) and
//! the plot.
//!
//! Needs `chromium` and `chromium-driver`; see `tests/browser.rs`.

mod common;

use behaved_format::model::{Node, Params};
use behaved_format::utility::{Curve, Score, ScoreOf};
use common::browser::{click, eval, open, type_into, with_browser};
use common::editing::{folder_with, serve_editor, until};
use fantoccini::{Client, Locator};
use serde_json::Value;
use serde_json::json;

/// The villagers' tree: a reactive utility over four scored children, with
/// logistic, polynomial and linear curves, a product and a constant.
const VILLAGE: &str = include_str!("../../examples/trees/village.json");

/// The curves of `scores` in the order the page lists them (parts of a
/// product after their product's place).
fn curves(scores: &[Score], out: &mut Vec<Curve>) {
    for s in scores {
        match &s.of {
            ScoreOf::Consider { curve, .. } => out.extend(curve.clone()),
            ScoreOf::All(parts) => curves(parts, out),
        }
    }
}

/// The utility node's curves in `json` (the tree's `child`).
fn curves_of(json: &str) -> Vec<Curve> {
    let root = Node::parse(json).unwrap();
    let Params::Utility { scores, .. } = root.children()[0].params() else {
        panic!("the root's child is the utility")
    };
    let mut out = Vec::new();
    curves(scores, &mut out);
    out
}

/// Each plot's range and values, in page order.
async fn plots(client: &Client) -> Vec<(f64, f64, Vec<f64>)> {
    let v = eval(
        client,
        "return [...document.querySelectorAll('#scores-editor .curve-plot')].map((p) =>
           [Number(p.dataset.from), Number(p.dataset.to), p.dataset.values.split(' ').map(Number)]);",
    )
    .await;
    v.as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let values = p[2].as_array().unwrap().iter().map(|y| y.as_f64().unwrap()).collect();
            (p[0].as_f64().unwrap(), p[1].as_f64().unwrap(), values)
        })
        .collect()
}

/// Every plot has the runtime's values of the document's curve at its sample points.
fn assert_plotted(plotted: &[(f64, f64, Vec<f64>)], curves: &[Curve]) {
    assert_eq!(plotted.len(), curves.len(), "a plot per curve");
    for (i, ((from, to, values), curve)) in plotted.iter().zip(curves).enumerate() {
        assert_eq!(values.len(), 41, "curve {i}");
        for (k, y) in values.iter().enumerate() {
            let x = from + (to - from) * k as f64 / 40.0;
            let runtime = f64::from(curve.eval(x as f32));
            assert!(
                (y - runtime).abs() < 1e-5,
                "curve {i} ({}) at {x}: page {y}, runtime {runtime}",
                curve.name()
            );
        }
    }
}

#[test]
fn each_curve_is_plotted_with_the_runtimes_values_and_edits_change_the_document_and_the_plot() {
    let dir = folder_with("curves", "village.json", VILLAGE);
    let url = format!(
        "http://{}/",
        serve_editor(behaved_studio::Editor::new(dir.join("village.json")))
    );
    with_browser("curve_editor", |client| async move {
        open(&client, &url).await;
        click(&client, "#viewport .node[data-path='child']").await;
        until(
            &client,
            "return document.querySelectorAll('#scores-editor fieldset.score').length === 6;",
        )
        .await;
        let kinds = eval(
            &client,
            "return [...document.querySelectorAll('#scores-editor select[data-param=curve]')].map((s) => s.value);",
        )
        .await;
        assert_eq!(
            kinds,
            serde_json::json!(["logistic", "polynomial", "linear", "", ""]),
            "scores[0], scores[1], the product's two parts, the constant"
        );
        assert_plotted(&plots(&client).await, &curves_of(VILLAGE));

        // A parameter: the document and the plot follow.
        type_into(
            &client,
            "fieldset[data-path='scores[0]'] input[data-param='midpoint']",
            "0.7",
        )
        .await;
        let doc = "JSON.parse(window.btEditor.docText())";
        until(
            &client,
            &format!("return {doc}.child.scores[0].curve.midpoint === 0.7;"),
        )
        .await;
        let text = eval(&client, "return window.btEditor.docText();").await;
        let edited = curves_of(text.as_str().unwrap());
        assert_eq!(
            edited[0],
            Curve::Logistic {
                steepness: 12.0,
                midpoint: 0.7
            }
        );
        assert_plotted(&plots(&client).await, &edited);

        // The constant's score gets a step curve, started from the catalogue's parameters.
        let select = client
            .find(Locator::Css(
                "fieldset[data-path='scores[3]'] select[data-param='curve']",
            ))
            .await
            .unwrap();
        select.select_by_value("step").await.unwrap();
        until(
            &client,
            &format!("return {doc}.child.scores[3].curve?.curve === 'step';"),
        )
        .await;
        let text = eval(&client, "return window.btEditor.docText();").await;
        let score = serde_json::from_str::<Value>(text.as_str().unwrap()).unwrap()["child"]["scores"][3].clone();
        assert_eq!(
            score,
            serde_json::json!({ "consider": { "type": "constant", "value": 0.3 },
                                "curve": { "curve": "step", "threshold": 0.5, "low": 0, "high": 1 } })
        );
        assert_plotted(&plots(&client).await, &curves_of(text.as_str().unwrap()));
    });
}

/// A `pick` whose score is a weighted product of two curved considerations
/// (a logistic and a piecewise curve), under a sequence.
const HUNT: &str = r#"{
  "type": "sequence",
  "children": [
    {
      "type": "pick", "items": "targets", "max": 8,
      "score": {
        "all": [
          { "consider": "health", "curve": { "curve": "logistic", "steepness": 10, "midpoint": 0.4 } },
          { "consider": { "type": "distance", "within": 5 }, "curve": { "curve": "piecewise", "points": [[0, 1], [2, 0.5], [5, 0]] } }
        ],
        "weight": 1.5
      },
      "child": { "type": "action", "action": "attack" }
    }
  ]
}"#;

/// The pick's curves in `json` (the sequence's first child), in page order.
fn pick_curves_of(json: &str) -> Vec<Curve> {
    let root = Node::parse(json).unwrap();
    let Params::Pick { score, .. } = root.children()[0].params() else {
        panic!("the root's first child is the pick")
    };
    let mut out = Vec::new();
    curves(std::slice::from_ref(score), &mut out);
    out
}

#[test]
fn a_picks_score_is_edited_as_a_utility_childs_with_its_curves_plotted_and_saved() {
    let dir = folder_with("pick-score", "hunt.json", HUNT);
    let url = format!(
        "http://{}/",
        serve_editor(behaved_studio::Editor::new(dir.join("hunt.json")))
    );
    with_browser("curve_editor_pick", |client| async move {
        open(&client, &url).await;
        click(&client, "#viewport .node[data-path='children[0]']").await;
        until(
            &client,
            "return document.querySelectorAll('#scores-editor fieldset.score').length === 3;",
        )
        .await;
        let paths = eval(
            &client,
            "return [...document.querySelectorAll('#scores-editor fieldset.score')].map((f) => f.dataset.path);",
        )
        .await;
        assert_eq!(paths, json!(["score", "score.all[0]", "score.all[1]"]));
        let kinds = eval(
            &client,
            "return [...document.querySelectorAll('#scores-editor select[data-param=curve]')].map((s) => s.value);",
        )
        .await;
        assert_eq!(kinds, json!(["logistic", "piecewise"]));
        assert_plotted(&plots(&client).await, &pick_curves_of(HUNT));

        // A parameter of the first part's curve.
        type_into(
            &client,
            "fieldset[data-path='score.all[0]'] input[data-param='midpoint']",
            "0.6",
        )
        .await;
        let doc = "JSON.parse(window.btEditor.docText()).children[0].score";
        until(&client, &format!("return {doc}.all[0].curve.midpoint === 0.6;")).await;
        // The product's weight (the outer fieldset's own input).
        type_into(&client, "fieldset[data-path='score'] > input[data-param='weight']", "2").await;
        until(&client, &format!("return {doc}.weight === 2;")).await;
        // The second part's curve becomes linear, from the catalogue's parameters.
        let select = client
            .find(Locator::Css(
                "fieldset[data-path='score.all[1]'] select[data-param='curve']",
            ))
            .await
            .unwrap();
        select.select_by_value("linear").await.unwrap();
        until(&client, &format!("return {doc}.all[1].curve.curve === 'linear';")).await;
        let text = eval(&client, "return window.btEditor.docText();").await;
        let edited = pick_curves_of(text.as_str().unwrap());
        assert_eq!(
            edited,
            [
                Curve::Logistic {
                    steepness: 10.0,
                    midpoint: 0.6
                },
                Curve::Linear {
                    slope: 1.0,
                    intercept: 0.0
                }
            ]
        );
        assert_plotted(&plots(&client).await, &edited);

        // Saved: the file holds the edited score, the rest as it was.
        click(&client, "#save").await;
        until(
            &client,
            "return document.querySelector('#status').textContent.startsWith('saved');",
        )
        .await;
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("hunt.json")).unwrap()).unwrap();
        let mut expected: Value = serde_json::from_str(HUNT).unwrap();
        expected["children"][0]["score"] = json!({
            "all": [
                { "consider": "health", "curve": { "curve": "logistic", "steepness": 10, "midpoint": 0.6 } },
                { "consider": { "type": "distance", "within": 5 }, "curve": { "curve": "linear", "slope": 1, "intercept": 0 } }
            ],
            "weight": 2
        });
        assert_eq!(saved, expected);
    });
}
