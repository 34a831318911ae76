use game_core::GameExt;
use game_core::{Bot, Game, RandomBot};
use yut::{Yut, YutOptions};

#[test]
fn random_games_finish() {
    let game = Yut::standard();
    for seed in 0..200 {
        let players = yut::testing::players(2 + (seed % 3) as usize);
        let mut s = game
            .setup(&YutOptions::default(), &players, seed, 0)
            .unwrap();
        let mut bot = RandomBot::new(seed);
        let mut steps = 0;
        while !game.is_over(&s) {
            let seat = game.to_act(&s)[0];
            let a = bot.choose(&game, &s, seat).expect("an action");
            game.apply(&mut s, seat, &a, steps).unwrap();
            game.check_state(&s).unwrap();
            steps += 1;
            assert!(steps < 10_000);
        }
        let out = game.outcome(&s).unwrap();
        assert!(!out.winners.is_empty());
    }
}
