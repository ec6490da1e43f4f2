//! `ludeme serve [FOLDER]`: a local web page that lists the games of a folder, shows their
//! boards and plays them (a person against any player, two people, or two players), reloading
//! a game when its file changes. The server is the `ludeme-web` crate; this command opens the
//! folder's settings and says where the page is.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;

use clap::Args;

use crate::exit;
use crate::project::settings_for;

/// The port the page is served on unless another is asked for.
const DEFAULT_PORT: u16 = 7417;

/// The options of `ludeme serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The folder whose games (.kif, .gdl, .hrf, .ludi, .egg, in its subfolders too) are served.
    #[arg(default_value = ".")]
    folder: PathBuf,
    /// The address to listen on. The default, 127.0.0.1, answers only this machine; another
    /// address (0.0.0.0 for every network) lets other machines play too, and then requests for
    /// any host name are answered.
    #[arg(long, alias = "host", value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// The port; 0 takes any free port (the address is printed).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    port: u16,
}

pub fn run(args: &ServeArgs) -> u8 {
    let folder = &args.folder;
    let fail = |message: String| {
        eprintln!("ludeme serve: {message}");
        exit::FAILURE
    };
    if !folder.is_dir() {
        return fail(format!("{}: not a folder", folder.display()));
    }
    // A broken settings file does not stop the page: defaults apply, and `ludeme check`
    // reports the file's mistakes.
    let settings = settings_for(std::slice::from_ref(folder), None)
        .map(|(settings, _)| settings)
        .unwrap_or_default();
    let options = ludeme_web::ServeOptions {
        folder: folder.clone(),
        address: SocketAddr::new(args.bind, args.port),
        settings,
    };
    let served = ludeme_web::run(options, |url| {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = writeln!(
            out,
            "ludeme serve: the games of {} at {url}",
            folder.display()
        );
        if !args.bind.is_loopback() {
            let _ = writeln!(
                out,
                "ludeme serve: listening on {}: other machines can reach the page",
                args.bind
            );
        }
        let _ = out.flush();
    });
    match served {
        Ok(()) => exit::CLEAN,
        Err(message) => fail(message),
    }
}
