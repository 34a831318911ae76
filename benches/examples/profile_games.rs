//! Plays many uniform-random standard games in a loop, for profilers (`perf record`).

fn main() {
    let game = yut::Yut::standard();
    let options = yut::YutOptions::default();
    let n: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    let mut decisions = 0;
    for seed in 0..n {
        decisions += benches::uniform_game(&game, &options, 2, seed);
    }
    println!("{n} games, {decisions} decisions");
}
