//! The limits that keep slow, idle or oversized clients from holding the server: the
//! shutdown's grace, the header read timeout, idle WebSockets, a client that never
//! reads its pushes, and messages over the hard cap.

mod common;

use std::time::{Duration, Instant};

use common::{Client, Server, TempDb, create, until_closed};
use futures_util::SinkExt;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// A WebSocket opened by hand over `tcp` (so that nothing is ever read or written on it
/// but what the test does: no automatic pong).
async fn raw_ws(addr: &str) -> TcpStream {
    let mut tcp = TcpStream::connect(addr).await.unwrap();
    tcp.write_all(
        format!(
            "GET /ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut b = [0u8; 1];
        tcp.read_exact(&mut b).await.unwrap();
        head.push(b[0]);
    }
    assert!(
        head.starts_with(b"HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&head)
    );
    tcp
}

/// The server's frames on a raw socket until its close frame or the connection's end:
/// (opcode, payload) each.
async fn frames<R: tokio::io::AsyncRead + Unpin>(tcp: &mut R, secs: u64) -> Vec<(u8, Vec<u8>)> {
    let mut out = Vec::new();
    let read = async {
        loop {
            let mut h = [0u8; 2];
            if tcp.read_exact(&mut h).await.is_err() {
                return;
            }
            let len = match h[1] & 0x7f {
                126 => {
                    let mut l = [0u8; 2];
                    tcp.read_exact(&mut l).await.unwrap();
                    u16::from_be_bytes(l) as usize
                }
                127 => {
                    let mut l = [0u8; 8];
                    tcp.read_exact(&mut l).await.unwrap();
                    u64::from_be_bytes(l) as usize
                }
                n => n as usize,
            };
            let mut payload = vec![0u8; len];
            tcp.read_exact(&mut payload).await.unwrap();
            out.push((h[0] & 0x0f, payload));
            // The close frame is the last the server sends.
            if h[0] & 0x0f == 8 {
                return;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(secs), read)
        .await
        .expect("the server closes the socket");
    out
}

/// Reads `tcp` until the server closes it, within `secs`; how long that took.
async fn closed_within(tcp: &mut TcpStream, secs: u64) -> Duration {
    let started = Instant::now();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(Duration::from_secs(secs), tcp.read(&mut buf)).await {
            Err(_) => panic!("still open after {secs} s"),
            Ok(Ok(0) | Err(_)) => return started.elapsed(),
            Ok(Ok(_)) => {}
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_exits_within_the_grace_with_a_partial_request_open() {
    let db = TempDb::new("grace-partial");
    let mut server = Server::start_with(&db.path(), 0, &[]);
    let mut partial = TcpStream::connect(&server.addr).await.unwrap();
    partial
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let mut c = Client::connect(&server.addr).await;
    create(&mut c, "rps", &["a", "b"], json!({})).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    let status = tokio::task::block_in_place(|| server.terminate(15));
    let took = started.elapsed();
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
    // The default grace is 5 s (the header timeout, 10 s, has not closed it yet).
    assert!(took < Duration::from_millis(7_500), "{took:?}");
    assert!(
        server
            .stderr()
            .contains("connections still open after 5000 ms"),
        "{}",
        server.stderr()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_without_a_whole_request_head_is_closed() {
    let db = TempDb::new("header-timeout");
    let server = Server::start_with(&db.path(), 0, &["--header-timeout-ms", "800"]);
    let mut silent = TcpStream::connect(&server.addr).await.unwrap();
    let mut partial = TcpStream::connect(&server.addr).await.unwrap();
    partial
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    // A kept-alive connection waiting for its next request is timed the same way.
    let mut kept = TcpStream::connect(&server.addr).await.unwrap();
    kept.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    for tcp in [&mut silent, &mut partial, &mut kept] {
        let took = closed_within(tcp, 5).await;
        assert!(took < Duration::from_secs(3), "{took:?}");
    }
    // A whole request is still served, and a WebSocket outlives the header timeout.
    let mut c = Client::connect(&server.addr).await;
    assert_eq!(c.listen(Duration::from_millis(1_500)).await, None);
    assert_eq!(c.req(json!({"op": "games"})).await["ok"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_websocket_is_closed_and_a_quiet_live_one_stays() {
    let db = TempDb::new("idle");
    let server = Server::start_with(&db.path(), 0, &["--idle-timeout-ms", "1500"]);
    // Never answers the server's pings.
    let mut mute = raw_ws(&server.addr).await;
    let started = Instant::now();
    // Reads (tungstenite answers each ping) but sends nothing of its own.
    let mut quiet = Client::connect(&server.addr).await;
    let (frames, quiet_closed) = tokio::join!(
        async {
            let frames = frames(&mut mute, 5).await;
            (frames, started.elapsed())
        },
        quiet.listen(Duration::from_millis(4_000)),
    );
    let (frames, took) = frames;
    assert_eq!(quiet_closed, None, "a client that answers pings stays");
    assert!(took >= Duration::from_millis(1_400), "{took:?}");
    let pings = frames.iter().filter(|(op, _)| *op == 9).count();
    assert!(pings >= 2, "pinged at a third of the idle time: {frames:?}");
    let (op, close) = frames.last().unwrap();
    assert_eq!(*op, 8, "{frames:?}");
    assert_eq!(u16::from_be_bytes([close[0], close[1]]), 1000);
    assert!(String::from_utf8_lossy(&close[2..]).contains("idle"));
    assert_eq!(quiet.req(json!({"op": "games"})).await["ok"], true);
}

/// One watcher never reads while bots play many matches: its queue fills, the server
/// closes it (1008), and a watcher that reads sees every match to its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_closed_and_the_others_play_on() {
    let db = TempDb::new("slow");
    let server = Server::start_with(&db.path(), 5, &["--push-queue-kib", "1024"]);
    // A small receive buffer, so the kernel holds little for it.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let tcp = socket.connect(server.addr.parse().unwrap()).await.unwrap();
    let (mut slow, _) = tokio_tungstenite::client_async(format!("ws://{}/ws", server.addr), tcp)
        .await
        .unwrap();
    let mut c = Client::connect(&server.addr).await;
    let mut reader = Client::connect(&server.addr).await;
    let mut ids = Vec::new();
    for _ in 0..16 {
        let created = create(
            &mut c,
            "yut-augments",
            &["a", "b", "c", "d"],
            json!({"a": "random", "b": "random", "c": "random", "d": "random"}),
        )
        .await;
        let m = created["match"].as_str().unwrap().to_owned();
        slow.send(Message::Text(
            json!({"op": "watch", "match": m}).to_string().into(),
        ))
        .await
        .unwrap();
        let watched = reader.req(json!({"op": "watch", "match": m})).await;
        assert_eq!(watched["ok"], true, "{watched}");
        ids.push(m);
    }
    let mut left: std::collections::HashSet<String> = ids.iter().cloned().collect();
    while !left.is_empty() {
        let p = reader.push_until(60, |p| p["over"] == true).await;
        left.remove(p["match"].as_str().unwrap());
    }
    // Everything the slow socket was sent before it was cut off, then its end: a close
    // frame when it still fit in the buffers, else the connection dropped.
    let (frame, read) = until_closed(&mut slow, 20).await;
    if let Some(frame) = frame {
        assert_eq!(frame.code, CloseCode::Policy, "{frame:?}");
    }
    assert!(read > 0);
    // The others are unaffected.
    assert_eq!(reader.req(json!({"op": "games"})).await["ok"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_over_the_hard_cap_is_closed_with_1009() {
    let db = TempDb::new("too-big");
    let server = Server::start(&db.path(), 0);
    for _ in 0..5 {
        let mut c = Client::connect(&server.addr).await;
        let big = format!(
            r#"{{"op":"games","pad":"{}"}}"#,
            "x".repeat(party_games_server::MAX_MESSAGE)
        );
        c.ws.send(Message::Text(big.into())).await.unwrap();
        let (frame, _) = until_closed(&mut c.ws, 10).await;
        let frame = frame.expect("a close frame");
        assert_eq!(frame.code, CloseCode::Size, "{frame:?}");
        assert!(frame.reason.starts_with("TOO_LARGE"), "{frame:?}");
    }
    // A frame over `MAX_FRAME` is refused from its header: the socket ends, with the
    // close frame if the client reads it before the reset.
    let mut c = Client::connect(&server.addr).await;
    let huge = "x".repeat(party_games_server::MAX_FRAME + 1);
    if c.ws.send(Message::Text(huge.into())).await.is_ok() {
        let (frame, _) = until_closed(&mut c.ws, 10).await;
        if let Some(frame) = frame {
            assert_eq!(frame.code, CloseCode::Size, "{frame:?}");
        }
    }
    // Between the request cap and the hard cap: an answer, and the socket stays.
    let mut c = Client::connect(&server.addr).await;
    let big = format!(
        r#"{{"op":"games","pad":"{}"}}"#,
        "x".repeat(party_games_server::MAX_REQUEST + party_games_server::MAX_REQUEST / 2)
    );
    let r = c.raw(big).await;
    assert_eq!(r["error"]["code"], "TOO_LARGE", "{r}");
    assert_eq!(c.req(json!({"op": "games"})).await["ok"], true);
}

/// A client frame (masked, as a client's must be): `op` with FIN set or not.
fn client_frame(fin: bool, op: u8, payload: &[u8]) -> Vec<u8> {
    let mut f = vec![if fin { 0x80 } else { 0 } | op];
    let len = payload.len();
    if len < 126 {
        f.push(0x80 | len as u8);
    } else {
        assert!(len <= u16::MAX as usize);
        f.push(0x80 | 126);
        f.extend_from_slice(&(len as u16).to_be_bytes());
    }
    let mask = [1u8, 2, 3, 4];
    f.extend_from_slice(&mask);
    f.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    f
}

/// A message begun and never finished, kept alive by fragments, pings and pongs well
/// within the idle time: closed (1008) once the message time passed since its first
/// byte; a client that finishes its messages in time stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_not_finished_in_time_is_closed_whatever_else_comes() {
    let db = TempDb::new("late-message");
    let server = Server::start_with(
        &db.path(),
        0,
        &["--message-timeout-ms", "1500", "--idle-timeout-ms", "60000"],
    );
    let (mut rd, mut slow) = raw_ws(&server.addr).await.into_split();
    let mut prompt = Client::connect(&server.addr).await;
    let started = Instant::now();
    slow.write_all(&client_frame(false, 1, br#"{"op":"games","pad":""#))
        .await
        .unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let read = async {
        let frames = frames(&mut rd, 10).await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        (frames, started.elapsed())
    };
    let feed = async {
        // A fragment, a ping and an unasked pong every 200 ms, until the socket ends.
        for _ in 0..40 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                break;
            }
            let mut burst = client_frame(false, 0, b"xxxxxxxxxxxxxxxx");
            burst.extend(client_frame(true, 9, b"p"));
            burst.extend(client_frame(true, 10, b"q"));
            if slow.write_all(&burst).await.is_err() {
                break;
            }
        }
    };
    // Meanwhile a client whose every message is whole stays, though it takes as long.
    let steady = async {
        for _ in 0..12 {
            tokio::time::sleep(Duration::from_millis(250)).await;
            assert_eq!(prompt.req(json!({"op": "games"})).await["ok"], true);
        }
    };
    let ((frames, took), (), ()) = tokio::join!(read, feed, steady);
    let (op, close) = frames.last().expect("a close frame");
    assert_eq!(*op, 8, "{frames:?}");
    assert_eq!(u16::from_be_bytes([close[0], close[1]]), 1008);
    assert!(
        String::from_utf8_lossy(&close[2..]).contains("message"),
        "{frames:?}"
    );
    assert!(took >= Duration::from_millis(1_400), "{took:?}");
    // The close at 1.5 s, then at most a second for the client's own close.
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_eq!(prompt.req(json!({"op": "games"})).await["ok"], true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_message_cap_is_a_flag_and_the_request_cap_half_of_it() {
    let db = TempDb::new("cap-flag");
    let server = Server::start_with(&db.path(), 0, &["--max-message-kib", "8"]);
    let mut c = Client::connect(&server.addr).await;
    let pad = |n: usize| format!(r#"{{"op":"games","pad":"{}"}}"#, "x".repeat(n));
    // Read and judged (a field `games` does not take), not refused for its size.
    let r = c.raw(pad(3_000)).await;
    assert!(
        r["error"]["code"].is_string() && r["error"]["code"] != "TOO_LARGE",
        "{r}"
    );
    let r = c.raw(pad(5_000)).await;
    assert_eq!(r["error"]["code"], "TOO_LARGE", "{r}");
    assert_eq!(r["error"]["reason"]["max"], 4096, "{r}");
    c.ws.send(Message::Text(pad(9_000).into())).await.unwrap();
    let (frame, _) = until_closed(&mut c.ws, 10).await;
    assert_eq!(frame.expect("a close frame").code, CloseCode::Size);
}

/// A message begun, then pings as fast as the connection takes them: the stream of
/// frames does not keep the late message's check from running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_pings_does_not_save_a_late_message() {
    let db = TempDb::new("late-flood");
    let server = Server::start_with(&db.path(), 0, &["--message-timeout-ms", "1000"]);
    let (mut rd, mut wr) = raw_ws(&server.addr).await.into_split();
    let started = Instant::now();
    wr.write_all(&client_frame(false, 1, b"{")).await.unwrap();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let read = async {
        let frames = frames(&mut rd, 15).await;
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        (frames, started.elapsed())
    };
    let flood = async {
        let pings: Vec<u8> = (0..100).flat_map(|_| client_frame(true, 9, b"")).collect();
        while !stop.load(std::sync::atomic::Ordering::Relaxed)
            && started.elapsed() < Duration::from_secs(10)
        {
            if wr.write_all(&pings).await.is_err() {
                break;
            }
            tokio::task::yield_now().await;
        }
    };
    let ((frames, took), ()) = tokio::join!(read, flood);
    let (op, close) = frames
        .iter()
        .rfind(|(op, _)| *op == 8)
        .expect("a close frame");
    assert_eq!(*op, 8);
    assert_eq!(u16::from_be_bytes([close[0], close[1]]), 1008);
    assert!(took < Duration::from_secs(5), "{took:?}");
}
