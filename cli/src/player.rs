//! `ludeme player --port N`: a general game player on HTTP, for a GGP game manager
//! (ggp-base's GameServer, Tiltyard, `ludeme match`). The protocol and the executive are the
//! `ludeme-ggp` crate; this is its command line.

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use clap::Args;
use ludeme_analysis::opponent_model::check_model_confidence;
use ludeme_analysis::play::{PLAYER_NAMES, unknown_player};
use ludeme_ggp::executive::{Executive, ModelsConfig, PlayerConfig};

use crate::exit;
use crate::play::ModelArgs;

/// The options of `ludeme player`.
#[derive(Args, Debug)]
pub struct PlayerArgs {
    /// The port to listen on (0: any free port, printed on the first line).
    #[arg(long)]
    port: u16,
    /// The player that chooses the moves: mcts (the default), legal, random, maximizer,
    /// minimax, bounded, alphabeta, iterative.
    #[arg(long, default_value = "mcts")]
    player: String,
    /// The name the player gives when a manager asks `(info)`.
    #[arg(long, default_value = "ludeme")]
    name: String,
    /// The address to listen on: this machine only unless told otherwise (`--bind 0.0.0.0`
    /// for a manager on another machine).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// The random seed of the random and MCTS players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The models are checked against the game of each `start` message: a match whose game
    /// they do not fit is played without them, the reason written to standard error.
    #[command(flatten)]
    models: ModelArgs,
}

pub fn run(args: &PlayerArgs) -> u8 {
    if !PLAYER_NAMES.contains(&args.player.as_str()) {
        eprintln!("ludeme player: {}", unknown_player(&args.player));
        return exit::FAILURE;
    }
    // The files are read and the confidence checked now: only the game is unknown until a
    // match starts.
    let saved = match args.models.read() {
        Ok(saved) => saved,
        Err(message) => {
            eprintln!("ludeme player: {message}");
            return exit::FAILURE;
        }
    };
    let modelled_roles: Vec<String> = saved.iter().map(|model| model.role.clone()).collect();
    let opponent_models = if saved.is_empty() {
        None
    } else if let Err(message) = check_model_confidence(args.models.model_confidence) {
        eprintln!("ludeme player: --model-confidence: {message}");
        return exit::FAILURE;
    } else {
        Some(ModelsConfig {
            models: Arc::from(saved),
            confidence: args.models.model_confidence,
        })
    };
    let executive = Executive::new(PlayerConfig {
        name: args.name.clone(),
        player: args.player.clone(),
        seed: args.seed,
        opponent_models,
    });
    let models_note = if modelled_roles.is_empty() {
        String::new()
    } else {
        format!(", opponent model of {}", modelled_roles.join(", "))
    };
    let address = SocketAddr::new(args.bind, args.port);
    let served = ludeme_ggp::server::serve(executive, address, |bound| {
        // The first line says where the player listens (a test or script reads the port).
        println!(
            "ludeme player {} ({}{models_note}) listening on http://{bound}",
            args.name, args.player
        );
        let _ = std::io::stdout().flush();
    });
    match served {
        Ok(()) => exit::CLEAN,
        Err(error) => {
            eprintln!("ludeme player: {address}: {error}");
            exit::FAILURE
        }
    }
}
