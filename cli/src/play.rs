//! `ludeme play FILE`: matches between named players on a game of any language, with each
//! player's wins, draws, losses and average goal.
//!
//! Players take turns at every role: in game `g` the `i`-th player plays the `(i + g)`-th
//! role (counting roles other than GDL-II's `random`, which is always played at random), so
//! over an even number of games of a two-player game each player plays each side equally.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use ludeme_analysis::opponent_model::{
    DEFAULT_MODEL_CONFIDENCE, OpponentModels, PruningCounts, SavedModel, read_model_file,
};
use ludeme_analysis::play::{
    MatchResult, MatchSettings, MoveBudget, PLAYER_NAMES, PlayableGame, Reward, RoleIndex,
    unknown_player,
};
use serde::Serialize;

use crate::exit;
use crate::project::{KnownGames, open_playable};

/// The options of `ludeme play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// A game: GDL (.kif, .gdl, .hrf), Ludi (.ludi) or an EGGG game the EGGG engine plays.
    file: PathBuf,
    /// A player, once per seat: mcts (the default), legal, random, maximizer, minimax, bounded,
    /// alphabeta, iterative. Seats left over are played by random.
    #[arg(long = "player", value_name = "NAME")]
    players: Vec<String>,
    /// How many games to play.
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// Each player's play clock: seconds per move.
    #[arg(long, default_value_t = 1.0)]
    move_seconds: f64,
    /// Also limit each move to this many units of work (search states, MCTS iterations); with
    /// it, the same seed plays the same games on any machine if the clock never runs out first.
    #[arg(long)]
    move_nodes: Option<u64>,
    /// Joint moves after which a game is abandoned.
    #[arg(long, default_value_t = 10_000)]
    max_plies: usize,
    /// The random seed of the random and MCTS players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    models: ModelArgs,
    #[arg(long, value_enum, default_value_t = PlayFormat::Human)]
    format: PlayFormat,
}

/// The opponent-model options of the commands that play matches (`ludeme play`, `ludeme
/// match`).
#[derive(Args, Debug)]
pub(crate) struct ModelArgs {
    /// A model of how a role is played, as `ludeme model train -o` writes it; once per modelled
    /// role. The searching players (mcts, alphabeta, iterative, minimax, bounded, maximizer)
    /// try that role's moves most probable first and search only the fewest whose
    /// probabilities reach --model-confidence; a player in the modelled role searches its own
    /// moves as usual. A model of another game is refused (`ludeme player` plays that match
    /// without it).
    #[arg(long = "opponent-model", value_name = "FILE")]
    pub(crate) opponent_models: Vec<PathBuf>,
    /// With --opponent-model: the probability of the modelled role's moves a search keeps at
    /// its turns (above 0, at most 1; 1 orders the moves without dropping any).
    #[arg(
        long,
        value_name = "P",
        default_value_t = DEFAULT_MODEL_CONFIDENCE,
        requires = "opponent_models"
    )]
    pub(crate) model_confidence: f64,
}

impl ModelArgs {
    /// The model files read through the analysis, or why one cannot be used (its path first).
    pub(crate) fn read(&self) -> Result<Vec<SavedModel>, String> {
        self.opponent_models
            .iter()
            .map(|path| {
                read_model_file(path).map_err(|message| format!("{}: {message}", path.display()))
            })
            .collect()
    }

    /// The models made for `game` from `saved` (what [`ModelArgs::read`] read), `None` when
    /// none were given, or why they do not fit the game.
    pub(crate) fn for_game(
        &self,
        game: &PlayableGame,
        saved: &[SavedModel],
    ) -> Result<Option<OpponentModels>, String> {
        if saved.is_empty() {
            return Ok(None);
        }
        game.opponent_models(saved, self.model_confidence)
            .map(Some)
            .map_err(|message| format!("--opponent-model: {message}"))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PlayFormat {
    Human,
    Json,
}

#[derive(Serialize)]
struct Report {
    game: String,
    /// The reasoner that ran: `grounded` or `interpreter`.
    engine: String,
    roles: Vec<String>,
    games: u32,
    move_seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    move_nodes: Option<u64>,
    /// One entry per seat, in the order the players were given.
    players: Vec<Standing>,
    /// The models the searching players used, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    opponent_models: Option<ModelsReport>,
    matches: Vec<MatchReport>,
}

#[derive(Serialize, Default)]
struct Standing {
    name: String,
    /// Games in which its goal was above every other player's (in a one-player game: 100).
    wins: u32,
    /// Games in which it shared the best goal (in a one-player game: a goal between 0 and 100).
    draws: u32,
    /// Games in which another player got more (in a one-player game: 0).
    losses: u32,
    /// Games that ended without a terminal state (see the matches' `end`).
    unfinished: u32,
    /// Its mean goal over the finished games.
    average_goal: f64,
    /// Its mean thinking time per move.
    seconds_per_move: f64,
    /// Its mean work per move that needed thought (search states, MCTS iterations); forced
    /// moves and the random and legal players count none.
    nodes_per_searched_move: f64,
    #[serde(skip)]
    goal_total: u64,
    #[serde(skip)]
    moves: usize,
    #[serde(skip)]
    thinking: Duration,
    #[serde(skip)]
    nodes: u64,
    #[serde(skip)]
    searched_moves: usize,
}

/// The opponent models a command's searching players used (`ludeme play`, `ludeme match`).
#[derive(Serialize)]
pub(crate) struct ModelsReport {
    /// The modelled roles, by name.
    roles: Vec<String>,
    confidence: f64,
    /// The modelled roles' nodes with a choice the searches met, their legal moves and the
    /// moves kept, all together.
    pruned_nodes: u64,
    legal_moves: u64,
    kept_moves: u64,
}

impl ModelsReport {
    /// The report of `models`, made for `game` at `confidence`, whose searches pruned as
    /// `pruning` counts.
    pub(crate) fn new(
        game: &PlayableGame,
        models: &OpponentModels,
        confidence: f64,
        pruning: PruningCounts,
    ) -> Self {
        ModelsReport {
            roles: models
                .roles()
                .iter()
                .map(|&role| game.roles()[role].clone())
                .collect(),
            confidence,
            pruned_nodes: pruning.nodes,
            legal_moves: pruning.legal,
            kept_moves: pruning.kept,
        }
    }

    /// The report as a line of the human format: the roles, the confidence and how many
    /// moves the searches kept on average.
    pub(crate) fn line(&self) -> String {
        let kept = if self.pruned_nodes > 0 {
            format!(
                "; at their turns the searches kept {:.2} of {:.2} moves on average",
                self.kept_moves as f64 / self.pruned_nodes as f64,
                self.legal_moves as f64 / self.pruned_nodes as f64
            )
        } else {
            String::new()
        };
        format!(
            "  opponent model of {} at confidence {}{kept}",
            self.roles.join(", "),
            self.confidence
        )
    }
}

#[derive(Serialize)]
struct MatchReport {
    /// The player of each role, by role.
    players: Vec<String>,
    /// The goals by role, when the game reached a terminal state.
    goals: Option<Vec<Reward>>,
    plies: usize,
    /// `terminal`, `ply limit`, or what went wrong.
    end: String,
}

pub fn run(args: &PlayArgs) -> u8 {
    let path = &args.file;
    let fail = |message: String| {
        eprintln!("ludeme play: {}: {message}", path.display());
        exit::FAILURE
    };
    let move_time = match Duration::try_from_secs_f64(args.move_seconds) {
        Ok(time) if !time.is_zero() => time,
        _ => {
            return fail(format!(
                "--move-seconds must be a positive number, not {}",
                args.move_seconds
            ));
        }
    };
    if let Some(unknown) = args
        .players
        .iter()
        .find(|name| !PLAYER_NAMES.contains(&name.as_str()))
    {
        return fail(unknown_player(unknown));
    }
    let saved_models = match args.models.read() {
        Ok(saved) => saved,
        Err(message) => return fail(message),
    };
    let game = match open_playable(path, KnownGames::FromSettings) {
        Ok(game) => game,
        Err(message) => return fail(message),
    };
    let models = match args.models.for_game(&game, &saved_models) {
        Ok(models) => models,
        Err(message) => return fail(message),
    };
    let seats: Vec<RoleIndex> = (0..game.roles().len())
        .filter(|&role| !game.is_random(role))
        .collect();
    if seats.is_empty() {
        return fail("the game has no role for a player".to_owned());
    }
    if args.players.len() > seats.len() {
        return fail(format!(
            "{} players were given for {} role(s)",
            args.players.len(),
            seats.len()
        ));
    }
    let mut names = args.players.clone();
    if names.is_empty() {
        names.push(PLAYER_NAMES[0].to_owned());
    }
    names.resize(seats.len(), "random".to_owned());

    let settings = MatchSettings {
        move_budget: MoveBudget {
            time: Some(move_time),
            nodes: args.move_nodes,
        },
        max_plies: args.max_plies,
        cancel: None,
        // `play_match` draws chance from the match's seed.
        chance_seed: 0,
    };
    let mut standings: Vec<Standing> = names
        .iter()
        .map(|name| Standing {
            name: name.clone(),
            ..Standing::default()
        })
        .collect();
    let mut matches = Vec::new();
    let json = args.format == PlayFormat::Json;
    for number in 0..args.games {
        // Entrant `i` plays seat `(i + number) mod seats`.
        let seat_of = |entrant: usize| seats[(entrant + number as usize) % seats.len()];
        let mut entrant_of_role = vec![None; game.roles().len()];
        for entrant in 0..names.len() {
            entrant_of_role[seat_of(entrant)] = Some(entrant);
        }
        let match_seed = args.seed ^ (u64::from(number) << 20);
        let players: Vec<Option<String>> = entrant_of_role
            .iter()
            .map(|entrant| entrant.map(|entrant| names[entrant].clone()))
            .collect();
        let (result, players) = match &models {
            Some(models) => game.play_match_with_models(&players, match_seed, &settings, models),
            None => game.play_match(&players, match_seed, &settings),
        };
        tally(&mut standings, &entrant_of_role, &result);
        let report = MatchReport {
            players: players.iter().map(|&name| name.to_owned()).collect(),
            goals: result.goals.clone(),
            plies: result.plies,
            end: game.describe_end(&result.end),
        };
        if !json {
            print_match(number, args.games, &game, &report);
        }
        matches.push(report);
    }
    for standing in &mut standings {
        let finished = standing.wins + standing.draws + standing.losses;
        if finished > 0 {
            standing.average_goal = standing.goal_total as f64 / f64::from(finished);
        }
        if standing.moves > 0 {
            standing.seconds_per_move = standing.thinking.as_secs_f64() / standing.moves as f64;
        }
        if standing.searched_moves > 0 {
            standing.nodes_per_searched_move =
                standing.nodes as f64 / standing.searched_moves as f64;
        }
    }
    let unfinished = matches.iter().any(|m| m.goals.is_none());
    let report = Report {
        game: path.display().to_string(),
        engine: game.engine_name().to_owned(),
        roles: game.roles().to_vec(),
        games: args.games,
        move_seconds: args.move_seconds,
        move_nodes: args.move_nodes,
        players: standings,
        opponent_models: models.as_ref().map(|models| {
            ModelsReport::new(
                &game,
                models,
                args.models.model_confidence,
                models.pruning(),
            )
        }),
        matches,
    };
    if json {
        match serde_json::to_string_pretty(&report) {
            Ok(text) => say(&text),
            Err(error) => return fail(format!("cannot write the report: {error}")),
        }
    } else {
        print_summary(&report);
    }
    // A game that does not end, or a reasoner that gives up, is a problem in the game.
    if unfinished {
        exit::PROBLEMS_FOUND
    } else {
        exit::CLEAN
    }
}

/// Adds a match to the standings of the entrants who played it.
fn tally(standings: &mut [Standing], entrant_of_role: &[Option<usize>], result: &MatchResult) {
    for (role, entrant) in entrant_of_role.iter().enumerate() {
        let Some(entrant) = *entrant else { continue };
        let standing = &mut standings[entrant];
        standing.moves += result.moves[role];
        standing.thinking += result.thinking[role];
        standing.nodes += result.nodes[role];
        standing.searched_moves += result.searched_moves[role];
        let Some(goals) = &result.goals else {
            standing.unfinished += 1;
            continue;
        };
        let mine = goals.get(role).copied().unwrap_or(0);
        standing.goal_total += u64::from(mine);
        // Only the players' goals count: GDL-II's `random` role has no stake.
        let others: Vec<Reward> = entrant_of_role
            .iter()
            .enumerate()
            .filter(|&(other, entrant)| other != role && entrant.is_some())
            .map(|(other, _)| goals.get(other).copied().unwrap_or(0))
            .collect();
        let best_other = others.iter().copied().max();
        match best_other {
            None if mine == 100 => standing.wins += 1,
            None if mine == 0 => standing.losses += 1,
            None => standing.draws += 1,
            Some(best) if mine > best => standing.wins += 1,
            Some(best) if mine == best => standing.draws += 1,
            Some(_) => standing.losses += 1,
        }
    }
}

fn print_match(number: u32, games: u32, game: &PlayableGame, report: &MatchReport) {
    let seats: Vec<String> = game
        .roles()
        .iter()
        .zip(&report.players)
        .enumerate()
        .map(|(role, (name, player))| match &report.goals {
            Some(goals) => format!("{name} ({player}) {}", goals[role]),
            None => format!("{name} ({player})"),
        })
        .collect();
    let end = match report.goals {
        Some(_) => String::new(),
        None => format!(" — unfinished: {}", report.end),
    };
    say(&format!(
        "game {}/{games}: {} after {} plies{end}",
        number + 1,
        seats.join(", "),
        report.plies
    ));
}

fn print_summary(report: &Report) {
    say(&format!(
        "{}: {} games, {} s per move{} ({} reasoner)",
        report.game,
        report.games,
        report.move_seconds,
        report
            .move_nodes
            .map(|nodes| format!(" or {nodes} nodes"))
            .unwrap_or_default(),
        report.engine
    ));
    if let Some(models) = &report.opponent_models {
        say(&models.line());
    }
    for standing in &report.players {
        let unfinished = if standing.unfinished > 0 {
            format!(", {} unfinished", standing.unfinished)
        } else {
            String::new()
        };
        let work = if standing.nodes_per_searched_move > 0.0 {
            format!(
                ", {:.0} nodes per searched move",
                standing.nodes_per_searched_move
            )
        } else {
            String::new()
        };
        say(&format!(
            "  {:<10} {} won, {} drawn, {} lost{unfinished}; average goal {:.1}; {:.3} s per move{work}",
            standing.name,
            standing.wins,
            standing.draws,
            standing.losses,
            standing.average_goal,
            standing.seconds_per_move
        ));
    }
}

/// Prints a line; a reader that went away (`ludeme play ... | head`) is not an error worth a
/// panic, and the games go on being played for the exit status.
fn say(line: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stdout().lock(), "{line}");
}
