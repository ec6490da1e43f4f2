//! Match play: Ludeme's players and a Ludeme game manager taking part in General Game
//! Playing matches over the GGP HTTP protocol (what ggp-base's GameServer, its players and
//! Tiltyard speak), and a player that also reads the Stanford Gamemaster's messages, on the
//! architecture of seeds 001 and 003.
//!
//! One module per concern:
//!
//! - [`messages`] — the protocol's requests and replies, read with the project's KIF reader
//!   under size and depth limits;
//! - [`gamemaster`] — the same requests in the Gamemaster's infix form (`ping()`,
//!   `start(ID, ROLE, ruleset(...), S, P)`, `play(ID, ACTION)`, ...), read with the project's
//!   infix GDL reader under the same limits;
//! - [`clocks`] — the thinking time and safety margin of a player, the grace of a manager;
//! - [`transport`] — the headers of a reply, and the manager's HTTP client with timeouts;
//! - [`executive`] — the player: the matches it is in and its `start`/`play`/`stop`/`abort`
//!   handlers (with the mapping from seed 001's code base to the engines' interface);
//! - [`server`] — the player's HTTP server (`ludeme player`);
//! - [`manager`] — the game manager (`ludeme match`): seed 001's match procedure;
//! - [`record`] — the match records it writes (their format), read back as steps of (state,
//!   joint move).
//!
//! One door: games are reached only through `ludeme-analysis`; this crate never chooses an
//! engine by language.

pub mod clocks;
pub mod executive;
pub mod gamemaster;
pub mod manager;
pub mod messages;
pub mod record;
pub mod server;
pub mod transport;
