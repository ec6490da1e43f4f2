//! `ludeme distance A B`, `ludeme nearest FILE`, `ludeme cluster DIR`: how far apart games are
//! by their ludeme trees (see `docs/distance.md`).

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::{Args, ValueEnum};
use ludeme_analysis::config::Config;
use ludeme_analysis::distance::cluster::{Merge, average_linkage, families, leaf_order};
use ludeme_analysis::distance::weighted::VARIANT_AT_MOST;
use ludeme_analysis::distance::{
    Catalog, LudemeTree, classic_measures, compare, game_title, ludeme_tree,
};
use ludeme_analysis::{Analysis, SourceFile};
use serde::Serialize;

use crate::exit;
use crate::progress::Progress;
use crate::project::{KnownGames, open_game, open_paths};

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DistanceFormat {
    Human,
    Json,
}

/// The options of `ludeme distance`.
#[derive(Args, Debug)]
pub struct DistanceArgs {
    /// The first game (.egg, .ludi, .kif, .gdl, .hrf).
    first: PathBuf,
    /// The second game, in the same language or another.
    second: PathBuf,
    #[arg(long, value_enum, default_value_t = DistanceFormat::Human)]
    format: DistanceFormat,
}

/// The options of `ludeme nearest`.
#[derive(Args, Debug)]
pub struct NearestArgs {
    /// The game to place among the others.
    file: PathBuf,
    /// The folder of known games (default: the game's project — the folder of its
    /// `ludeme.toml`, else its own folder — and the folders under `[corpus]` there).
    #[arg(long)]
    corpus: Option<PathBuf>,
    /// How many games to list.
    #[arg(short = 'n', default_value_t = 5)]
    count: usize,
    #[arg(long, value_enum, default_value_t = DistanceFormat::Human)]
    format: DistanceFormat,
}

/// The options of `ludeme cluster`.
#[derive(Args, Debug)]
pub struct ClusterArgs {
    /// A folder of games (searched recursively).
    folder: PathBuf,
    /// Also draw the dendrogram into this SVG file.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Also write every pairwise distance into this file, as tab-separated values: a row
    /// per game (its path, then its distance to each game in order; shortest exact decimals).
    #[arg(long)]
    matrix: Option<PathBuf>,
    /// Games at most this far apart on average form one family.
    #[arg(long, default_value_t = VARIANT_AT_MOST)]
    cut: f64,
    #[arg(long, value_enum, default_value_t = DistanceFormat::Human)]
    format: DistanceFormat,
}

/// The games of `paths`, read into one database, or why one cannot be.
fn load(paths: &[PathBuf]) -> Result<(Analysis, Vec<SourceFile>), String> {
    let reading = Progress::spinner("reading the games");
    let (host, loaded) = open_paths(paths, Config::default());
    drop(reading);
    if let Some(problem) = loaded.problems.first() {
        return Err(format!("{}: {}", problem.path.display(), problem.message));
    }
    let mut files = Vec::new();
    for (path, file) in loaded.checked {
        match file {
            Ok(file) => files.push(file),
            Err(failure) if paths.contains(&path) => {
                return Err(format!("{}: {failure}", path.display()));
            }
            // A file found in a folder that cannot be read is left out, with a word.
            Err(failure) => eprintln!("ludeme: skipping {}: {failure}", path.display()),
        }
    }
    Ok((host.snapshot(), files))
}

fn fail(message: &str) -> u8 {
    eprintln!("ludeme: {message}");
    exit::FAILURE
}

#[derive(Serialize)]
struct DistanceReport<'a> {
    distance: f64,
    class: &'static str,
    differences: Vec<String>,
    difference_details: &'a [ludeme_analysis::distance::Difference],
    tree_edit_distance: Option<usize>,
    tree_edit_distance_normalised: Option<f64>,
    jaccard_distance: f64,
}

/// How many differences the human output lists.
const SHOWN_DIFFERENCES: usize = 10;

pub fn run_distance(args: &DistanceArgs) -> u8 {
    let (analysis, files) = match load(&[args.first.clone(), args.second.clone()]) {
        Ok(loaded) => loaded,
        Err(message) => return fail(&message),
    };
    let db = analysis.db();
    let (first, second) = match files[..] {
        [first, second] => (first, second),
        // The same file named twice is one game, at distance 0 from itself.
        [only] => (only, only),
        _ => return fail("two games are needed"),
    };
    let (a, b) = (ludeme_tree(db, first), ludeme_tree(db, second));
    let comparison = compare(a, b);
    let classic = classic_measures(a, b);
    match args.format {
        DistanceFormat::Json => {
            let report = DistanceReport {
                distance: comparison.distance,
                class: comparison.class.name(),
                differences: comparison
                    .differences
                    .iter()
                    .map(ToString::to_string)
                    .collect(),
                difference_details: &comparison.differences,
                tree_edit_distance: classic.tree_edit_distance,
                tree_edit_distance_normalised: classic.tree_edit_distance_normalised,
                jaccard_distance: classic.jaccard_distance,
            };
            match serde_json::to_string_pretty(&report) {
                Ok(json) => println!("{json}"),
                Err(error) => return fail(&error.to_string()),
            }
        }
        DistanceFormat::Human => {
            println!(
                "{} ↔ {}: {:.3} ({})",
                game_title(db, first),
                game_title(db, second),
                comparison.distance,
                comparison.class.name()
            );
            for difference in comparison.differences.iter().take(SHOWN_DIFFERENCES) {
                println!("  {difference}");
            }
            let more = comparison
                .differences
                .len()
                .saturating_sub(SHOWN_DIFFERENCES);
            if more > 0 {
                println!("  … and {more} more");
            }
            let edits = classic
                .tree_edit_distance
                .map_or_else(|| "too large to compute".to_owned(), |d| d.to_string());
            println!(
                "classic measures: tree edit distance {edits}, Jaccard distance {:.3}",
                classic.jaccard_distance
            );
        }
    }
    exit::CLEAN
}

#[derive(Serialize)]
struct NeighbourReport {
    file: String,
    game: String,
    distance: f64,
    class: &'static str,
}

pub fn run_nearest(args: &NearestArgs) -> u8 {
    let shown = args.file.display();
    let known = match &args.corpus {
        Some(folder) => KnownGames::Only(vec![folder.clone()]),
        None => KnownGames::ProjectAndSettings,
    };
    let reading = Progress::spinner("reading the known games");
    let (analysis, target) = match open_game(&args.file, known) {
        Ok(opened) => opened,
        Err(message) => return fail(&format!("{shown}: {message}")),
    };
    drop(reading);
    let db = analysis.db();
    build_known_trees(&analysis);
    let Ok(nearest) = analysis.nearest(target, args.count, true) else {
        return fail("cancelled");
    };
    let mut found: Vec<_> = nearest
        .workspace
        .into_iter()
        .chain(nearest.corpus)
        .collect();
    if found.is_empty() {
        return fail(&format!(
            "{shown}: no other game is known: name a folder of games with --corpus, or list folders under [corpus] in ludeme.toml"
        ));
    }
    found.sort_by(|a, b| {
        a.distance
            .total_cmp(&b.distance)
            .then_with(|| a.file.path(db).cmp(b.file.path(db)))
    });
    let neighbours: Vec<NeighbourReport> = found
        .into_iter()
        .take(args.count)
        .map(|neighbour| NeighbourReport {
            file: neighbour.file.path(db).display().to_string(),
            game: game_title(db, neighbour.file),
            distance: neighbour.distance,
            class: neighbour.class.name(),
        })
        .collect();
    match args.format {
        DistanceFormat::Json => match serde_json::to_string_pretty(&neighbours) {
            Ok(json) => println!("{json}"),
            Err(error) => return fail(&error.to_string()),
        },
        DistanceFormat::Human => {
            println!("nearest to {}:", game_title(db, target));
            for neighbour in &neighbours {
                println!(
                    "  {:.3}  {:<9}  {}  ({})",
                    neighbour.distance, neighbour.class, neighbour.game, neighbour.file
                );
            }
        }
    }
    exit::CLEAN
}

/// The catalog's [`Catalog::distance_matrix`], worked out in batches of pairs on a terminal so
/// that a bar can show how far it is: on hundreds of games the comparisons take minutes. Each
/// batch starts its threads' memos of subtree costs afresh (some 7 % more work on 150 games),
/// so without a bar to draw the pairs go in one batch. The values are the same either way: the
/// memos only spare work.
fn distance_matrix(catalog: &Catalog<'_>) -> Vec<Vec<f64>> {
    /// How many bar steps at most; fewer when the pairs are few.
    const STEPS: usize = 40;
    /// The fewest pairs a batch holds, so that small matrices are one batch as before.
    const BATCH_AT_LEAST: usize = 2_000;
    let n = catalog.len();
    // Row by row, as `Catalog::distances` wants them: pairs that share a game side by side.
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect();
    let progress = Progress::bar(format!("comparing {n} games"), pairs.len() as u64, "pairs");
    let batch = if progress.is_shown() {
        pairs.len().div_ceil(STEPS).max(BATCH_AT_LEAST)
    } else {
        pairs.len().max(1)
    };
    let mut matrix = vec![vec![0.0; n]; n];
    for chunk in pairs.chunks(batch) {
        for (&(i, j), value) in chunk.iter().zip(catalog.distances(chunk)) {
            matrix[i][j] = value;
            matrix[j][i] = value;
        }
        progress.advance(chunk.len() as u64);
    }
    matrix
}

/// Builds the ludeme tree of every known game, with a bar: the bulk of the work of `nearest`
/// (and of a report's nearest games) over a large corpus, which the search then finds done
/// (the trees are salsa's, kept).
pub fn build_known_trees(analysis: &Analysis) {
    let db = analysis.db();
    let Some(project) = ludeme_analysis::project::project(db) else {
        return;
    };
    let known: Vec<SourceFile> = project
        .workspace(db)
        .iter()
        .chain(project.corpus(db))
        .copied()
        .collect();
    let progress = Progress::bar("building ludeme trees", known.len() as u64, "games");
    for file in known {
        if analysis.with_db(|db| ludeme_tree(db, file).len()).is_err() {
            return;
        }
        progress.advance(1);
    }
}

#[derive(Serialize)]
struct ClusterReport {
    families: Vec<Vec<String>>,
    merges: Vec<MergeReport>,
}

#[derive(Serialize)]
struct MergeReport {
    first: usize,
    second: usize,
    distance: f64,
    size: usize,
}

pub fn run_cluster(args: &ClusterArgs) -> u8 {
    let (analysis, files) = match load(std::slice::from_ref(&args.folder)) {
        Ok(loaded) => loaded,
        Err(message) => return fail(&message),
    };
    let db = analysis.db();
    let trees: Vec<&LudemeTree> = {
        let progress = Progress::bar("building ludeme trees", files.len() as u64, "games");
        files
            .iter()
            .map(|&f| {
                let tree = ludeme_tree(db, f);
                progress.advance(1);
                tree
            })
            .collect()
    };
    let matrix = distance_matrix(&Catalog::new(&trees));
    let merges = average_linkage(&matrix);
    let titles: Vec<String> = files.iter().map(|&f| game_title(db, f)).collect();
    let groups = families(files.len(), &merges, args.cut);
    if let Some(path) = &args.svg
        && let Err(error) = std::fs::write(path, dendrogram_svg(&titles, &merges))
    {
        return fail(&format!("{}: {error}", path.display()));
    }
    if let Some(path) = &args.matrix {
        let paths: Vec<String> = files
            .iter()
            .map(|&f| f.path(db).display().to_string())
            .collect();
        if let Err(error) = std::fs::write(path, matrix_tsv(&paths, &matrix)) {
            return fail(&format!("{}: {error}", path.display()));
        }
    }
    match args.format {
        DistanceFormat::Json => {
            let report = ClusterReport {
                families: groups
                    .iter()
                    .map(|family| {
                        family
                            .iter()
                            .map(|&i| files[i].path(db).display().to_string())
                            .collect()
                    })
                    .collect(),
                merges: merges
                    .iter()
                    .map(|merge| MergeReport {
                        first: merge.first,
                        second: merge.second,
                        distance: merge.distance,
                        size: merge.size,
                    })
                    .collect(),
            };
            match serde_json::to_string_pretty(&report) {
                Ok(json) => println!("{json}"),
                Err(error) => return fail(&error.to_string()),
            }
        }
        DistanceFormat::Human => {
            let singles: Vec<&str> = groups
                .iter()
                .filter(|family| family.len() == 1)
                .map(|family| titles[family[0]].as_str())
                .collect();
            let mut number = 0;
            for family in groups.iter().filter(|family| family.len() > 1) {
                number += 1;
                let names: Vec<&str> = family.iter().map(|&i| titles[i].as_str()).collect();
                println!(
                    "family {number} ({} games): {}",
                    family.len(),
                    names.join(", ")
                );
            }
            if !singles.is_empty() {
                println!("on their own: {}", singles.join(", "));
            }
        }
    }
    exit::CLEAN
}

/// The distance matrix as tab-separated values, a row per game: its path, then its distances.
/// Rust prints the shortest decimal that reads back as the same `f64`, so the file is exact.
fn matrix_tsv(paths: &[String], matrix: &[Vec<f64>]) -> String {
    let mut tsv = String::new();
    for (path, row) in paths.iter().zip(matrix) {
        tsv.push_str(path);
        for value in row {
            let _ = write!(tsv, "\t{value}");
        }
        tsv.push('\n');
    }
    tsv
}

/// Escapes text for SVG.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A dendrogram: games down the left, distance from 0 to 1 across, one bracket per merge.
fn dendrogram_svg(titles: &[String], merges: &[Merge]) -> String {
    const ROW: f64 = 18.0;
    const LABEL_WIDTH: f64 = 240.0;
    const PLOT_WIDTH: f64 = 520.0;
    const TOP: f64 = 30.0;
    let n = titles.len();
    let order = leaf_order(n, merges);
    // (y, x) of each cluster's stem: leaves at their rows, merges at their distance.
    let mut stems: Vec<(f64, f64)> = vec![(0.0, LABEL_WIDTH); n + merges.len()];
    let mut svg = String::new();
    let height = TOP + ROW * n as f64 + 20.0;
    let width = LABEL_WIDTH + PLOT_WIDTH + 20.0;
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">"#
    );
    let x_of = |distance: f64| LABEL_WIDTH + PLOT_WIDTH * distance.clamp(0.0, 1.0);
    for (row, &game) in order.iter().enumerate() {
        let y = TOP + ROW * row as f64;
        stems[game] = (y, x_of(0.0));
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            LABEL_WIDTH - 6.0,
            y + 4.0,
            escape(&titles[game])
        );
    }
    for (k, merge) in merges.iter().enumerate() {
        let (y1, x1) = stems[merge.first];
        let (y2, x2) = stems[merge.second];
        let x = x_of(merge.distance);
        let _ = writeln!(
            svg,
            r#"<path d="M{x1:.1},{y1:.1} H{x:.1} V{y2:.1} H{x2:.1}" fill="none" stroke="black"/>"#
        );
        stems[n + k] = ((y1 + y2) / 2.0, x);
    }
    for tick in [0.0, VARIANT_AT_MOST, 0.5, 1.0] {
        let x = x_of(tick);
        let _ = writeln!(
            svg,
            r##"<line x1="{x:.1}" y1="{}" x2="{x:.1}" y2="{}" stroke="#bbb" stroke-dasharray="3,3"/><text x="{x:.1}" y="14" text-anchor="middle">{tick:.2}</text>"##,
            TOP - 10.0,
            height - 10.0
        );
    }
    svg.push_str("</svg>\n");
    svg
}
