//! Names on the open internet (issue 45, 9): no second "Ada Lovelace" made
//! of look-alikes or hidden characters, and none of the names the server
//! gives or speaks under, neither for an account nor for a guest sitting
//! down among strangers.

mod common;

use axum::http::StatusCode;
use carcassonne_server::{app, AppState, Config, Store};
use common::page::{send, Req};
use serde_json::json;

const HOST: &str = "play.example";
const ORIGIN: &str = "http://play.example";

fn req<'a>(method: &'a str, uri: &'a str, body: Option<serde_json::Value>) -> Req<'a> {
    common::page::req(HOST, ORIGIN, method, uri, body)
}

#[tokio::test]
async fn no_second_ada_lovelace_and_no_admin() {
    let app = app(AppState::new(Store::in_memory().unwrap(), Config::quick()));
    let sign_up = |name: &'static str| {
        let app = app.clone();
        async move {
            let body = json!({ "name": name, "password": "correct horse" });
            send(&app, req("POST", "/api/account/signup", Some(body))).await
        }
    };
    assert_eq!(sign_up("Ada Lovelace").await.status, StatusCode::CREATED);
    for twin in [
        "\u{0410}da Lovelace",
        "\u{0391}da Lovelace",
        "Ada\u{FE0F} Lovelace",
        "Ada\u{1BCA1} Lovelace",
        "Ada Lovelace\u{13430}",
        "Ada Lovelace\u{2800}",
        "ADA  LOVELACE",
    ] {
        let a = sign_up(twin).await;
        assert_eq!((a.status, a.body["error"].as_str()), (StatusCode::CONFLICT, Some("name_taken")), "{twin:?}");
    }
    for name in ["admin", "root", "moderator", "deleted player", "Spectator 1", "Guest 1234", "Player 1"] {
        let a = sign_up(name).await;
        assert_eq!((a.status, a.body["error"].as_str()), (StatusCode::CONFLICT, Some("name_taken")), "{name:?}");
    }
    // The look-alike signs in to Ada's account, not to one of its own.
    let body = json!({ "name": "\u{0410}da Lovelace", "password": "correct horse" });
    let a = send(&app, req("POST", "/api/account/signin", Some(body))).await;
    assert_eq!(a.status, StatusCode::OK, "{}", a.body);
    assert_eq!(a.body["name"], "Ada Lovelace");
}
