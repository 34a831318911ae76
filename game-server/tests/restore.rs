//! Restart in the background: the server listens before its unfinished matches are
//! back, restores them in batches, and a request for one not yet back waits for it (or
//! is told when to try again).

mod common;

use common::{Client, Server, code, create, token};
use serde_json::json;

on_stores! {
    /// 1,500 unfinished matches (three batches): every one is served after a restart,
    /// requests sent at once included, and its seats were marked away in the store.
    async fn unfinished_matches_are_restored_behind_a_listening_server(db) {
        // A short lease (PostgreSQL): the killed server's match is free to claim by the
        // time the next one starts.
        let mut server = Server::start_with(&db.path(), 0, &["--lease-ms", "300"]);
        let mut c = Client::connect(&server.addr).await;
        let created = create(&mut c, "rps", &["a", "b"], json!({})).await;
        let m = created["match"].as_str().unwrap().to_owned();
        server.kill();
        tokio::time::sleep(std::time::Duration::from_millis(400)).await;
        // Copies of the match under other ids, written straight into the store.
        let n = 1_500;
        let mut copies = Vec::with_capacity(2 * n);
        for i in 0..n {
            let id = format!("copy{i}");
            copies.push((
                "INSERT INTO matches (id, head, seats, bots, finished)
                 SELECT ?2, head, seats, bots, finished FROM matches WHERE id = ?1",
                vec![m.clone(), id.clone()],
            ));
            copies.push((
                "INSERT INTO entries (match_id, seq, entry)
                 SELECT ?2, seq, entry FROM entries WHERE match_id = ?1",
                vec![m.clone(), id],
            ));
        }
        db.exec(&copies);
        let server = Server::start_with(&db.path(), 0, &[]);
        let mut w = Client::connect(&server.addr).await;
        // The last ones restored, asked for at once: they wait, or are told when to retry.
        for i in (0..n).rev().step_by(97) {
            let id = format!("copy{i}");
            loop {
                let watched = w.req(json!({"op": "watch", "match": &id})).await;
                if watched["ok"] == true {
                    break;
                }
                assert_eq!(code(&watched), "UNAVAILABLE", "{watched}");
                let retry = watched["error"]["reason"]["retryAfterMs"].as_u64().unwrap();
                tokio::time::sleep(std::time::Duration::from_millis(retry)).await;
            }
        }
        let err = server.stderr_until("unfinished matches in", 60);
        assert!(
            err.contains(&format!("restored {} of {} unfinished", n + 1, n + 1)),
            "{err}"
        );
        // A seat of a copy is served (its token is the original's), and the store has its
        // disconnections.
        let mut a = common::hello(&server.addr, "copy7", &token(&created, "a")).await;
        let view = a.req(json!({"op": "view", "match": "copy7"})).await;
        assert_eq!(view["ok"], true, "{view}");
        let presence = db.query_i64(
            "SELECT COUNT(*) FROM entries WHERE match_id = 'copy7' AND entry LIKE '%\"presence\"%'",
            &[],
        );
        assert!(presence >= 2, "{presence} presence entries");
        drop(Client::connect(&server.addr).await);
    }
}
