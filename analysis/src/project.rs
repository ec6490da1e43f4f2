//! The project: which games are known besides the one analysed, and the settings in force.
//!
//! A salsa input like the files' texts, so that what depends on it — the search for duplicates
//! and nearest games, the rule selection — is worked out again when, and only when, it changes:
//! a game added, removed or edited among the known ones, a `ludeme.toml` changed. The front end
//! sets it through the [`crate::AnalysisHost`]; queries read it through [`project`].

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHasher};

use crate::config::Config;
use crate::distance::{Neighbour, build_ludeme_tree, duplicate_diagnostic, nearest};
use crate::{Db, Diagnostic, SourceFile, Syntax};

/// The known games and the settings.
#[salsa::input(singleton, debug)]
pub struct Project {
    /// The project's own game files (the workspace folders and open documents in the editor; the
    /// files checked and their EGGG siblings on the command line), sorted by path.
    #[returns(ref)]
    pub workspace: Vec<SourceFile>,
    /// Games of the corpus folders (`[corpus] folders` of `ludeme.toml`) that are not
    /// workspace files, sorted by path.
    #[returns(ref)]
    pub corpus: Vec<SourceFile>,
    /// The settings of `ludeme.toml`, with the editor's own settings applied over them.
    #[returns(ref)]
    pub settings: Arc<Config>,
}

/// The project input, when the front end created one. A database without one (a unit test's)
/// knows no other games and uses the default settings; its absence is not an input salsa can
/// record, so it is reported as an untracked read.
pub fn project(db: &dyn Db) -> Option<Project> {
    let project = Project::try_get(db);
    if project.is_none() {
        db.report_untracked_read();
    }
    project
}

/// The nearest games of the same language among the workspace's and among the corpus's (two
/// lists, nearest first, at most `count` each).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NearestGames {
    pub workspace: Vec<Neighbour>,
    pub corpus: Vec<Neighbour>,
}

impl NearestGames {
    /// The nearest of all.
    pub fn best(&self) -> Option<&Neighbour> {
        self.workspace
            .iter()
            .chain(&self.corpus)
            .min_by(|a, b| a.distance.total_cmp(&b.distance))
    }
}

/// GDL's two syntaxes are one language: a KIF game may duplicate an infix one.
fn language(syntax: Syntax) -> Syntax {
    match syntax {
        Syntax::GdlInfix => Syntax::GdlKif,
        other => other,
    }
}

fn comparable(
    db: &dyn Db,
    file: SourceFile,
    candidates: &[SourceFile],
    any_language: bool,
) -> Vec<SourceFile> {
    let wanted = language(file.syntax(db));
    candidates
        .iter()
        .copied()
        .filter(|&candidate| {
            candidate != file && (any_language || language(candidate.syntax(db)) == wanted)
        })
        .collect()
}

/// The known games nearest to `file`: of its language, or of any language.
#[salsa::tracked(returns(ref))]
pub fn nearest_known_games(
    db: &dyn Db,
    file: SourceFile,
    count: usize,
    any_language: bool,
) -> NearestGames {
    let Some(project) = project(db) else {
        return NearestGames::default();
    };
    let among = |candidates: &[SourceFile]| {
        nearest(
            db,
            file,
            &comparable(db, file, candidates, any_language),
            count,
        )
    };
    NearestGames {
        workspace: among(project.workspace(db)),
        corpus: among(project.corpus(db)),
    }
}

/// `distance/duplicate` for `file`, when a known game of its language is the same game.
///
/// Only games with the same [`rough_key`] and then the same [`duplicate_key`] can be at
/// distance 0, so only they are compared: one pass over the known games instead of a distance
/// to each (which, for every file of a large project, would be quadratic), and ludeme trees
/// built only for the few games a rough key does not tell apart.
#[salsa::tracked(returns(ref))]
pub fn duplicate_of_known_game(db: &dyn Db, file: SourceFile) -> Option<Diagnostic> {
    let rough = rough_key(db, file)?;
    let alike: Vec<SourceFile> = known_games_by_rough_key(db)
        .get(&rough)?
        .iter()
        .copied()
        .filter(|&candidate| candidate != file)
        .collect();
    if alike.is_empty() {
        return None;
    }
    let key = duplicate_key(db, file)?;
    let candidates: Vec<SourceFile> = alike
        .into_iter()
        .filter(|&candidate| duplicate_key(db, candidate) == Some(key))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let nearest = nearest(db, file, &candidates, 1);
    duplicate_diagnostic(db, file, nearest.first()?)
}

/// The known games (workspace and corpus) by [`rough_key`].
#[salsa::tracked(returns(ref))]
fn known_games_by_rough_key(db: &dyn Db) -> FxHashMap<u64, Vec<SourceFile>> {
    let mut by_key: FxHashMap<u64, Vec<SourceFile>> = FxHashMap::default();
    if let Some(project) = project(db) {
        for &file in project.workspace(db).iter().chain(project.corpus(db)) {
            if let Some(key) = rough_key(db, file) {
                by_key.entry(key).or_default().push(file);
            }
        }
    }
    by_key
}

/// A key that games at distance 0 share, cheap where it matters: for GDL, how many facts and
/// how many rules define each relation, read off the rules the checks lowered already (every
/// rule is a part of the ludeme tree under its root, a fact labelled by its relation and a rule
/// holding its head, and names are kept as written, so games whose parts are the same up to
/// order count the same); for Ludi and EGGG, whose projects are small, the [`duplicate_key`]
/// itself.
#[salsa::tracked(returns(copy))]
fn rough_key(db: &dyn Db, file: SourceFile) -> Option<u64> {
    match file.syntax(db) {
        Syntax::GdlKif | Syntax::GdlInfix => {
            // From the forms the checks lowered one by one when the file was read so: the
            // file's whole rule set, merged, is a copy of every rule that `check` never needs.
            let mut defined: Vec<(&str, bool)> = match crate::gdl::gdl_forms(db, file) {
                Some(forms) => forms
                    .iter()
                    .flat_map(|&form| crate::gdl::lower_form(db, form).rules.rules.iter())
                    .map(tree_part)
                    .collect(),
                None => crate::gdl::gdl_rules(db, file)
                    .rules
                    .rules
                    .iter()
                    .map(tree_part)
                    .collect(),
            };
            if defined.is_empty() {
                return None;
            }
            defined.sort_unstable();
            let mut hasher = FxHasher::default();
            language(file.syntax(db)).hash(&mut hasher);
            defined.hash(&mut hasher);
            Some(hasher.finish())
        }
        Syntax::Ludi | Syntax::Egg => duplicate_key(db, file),
    }
}

/// The relation a rule defines and whether it is a fact: what its part of the ludeme tree is
/// labelled by.
fn tree_part(rule: &crate::gdl::model::Rule) -> (&str, bool) {
    (&rule.head.name.name, rule.is_fact())
}

/// What two games at distance 0 share: their language and the order-blind hashes of the parts
/// of their ludeme trees under the root. Every node but the root weighs something in the
/// distance (docs/distance.md), so two games whose parts differ anywhere are at a positive
/// distance; the root's label (a game's name) weighs nothing and is left out. `None` for a
/// game with no parts.
#[salsa::tracked(returns(copy))]
fn duplicate_key(db: &dyn Db, file: SourceFile) -> Option<u64> {
    let tree = build_ludeme_tree(db, file);
    let root = tree.nodes().first()?;
    if root.children.is_empty() {
        return None;
    }
    let mut parts: Vec<(u16, u64)> = root
        .children
        .iter()
        .map(|&child| {
            let node = tree.node(child);
            (node.slot, node.hash)
        })
        .collect();
    parts.sort_unstable();
    let mut hasher = FxHasher::default();
    language(file.syntax(db)).hash(&mut hasher);
    parts.hash(&mut hasher);
    Some(hasher.finish())
}

/// The settings in force (the defaults without a project).
pub fn settings(db: &dyn Db) -> Arc<Config> {
    project(db).map_or_else(Arc::default, |project| project.settings(db).clone())
}

/// A fingerprint of the known games (workspace and corpus) of each language, GDL's two
/// syntaxes together: their paths, syntaxes and texts. What a file's check reads from other
/// files (`distance/duplicate`, an EGGG `is like`) is among the known games of its language, so
/// a cached result keyed on this fingerprint is never stale: a game added, removed or edited
/// changes it. Worked out once per revision, not once per file.
#[salsa::tracked(returns(copy))]
fn known_games_fingerprints(db: &dyn Db) -> [u128; 3] {
    let mut hashers = [(); 3].map(|()| siphasher::sip128::SipHasher13::new());
    if let Some(project) = project(db) {
        for &file in project.workspace(db).iter().chain(project.corpus(db)) {
            let hasher = &mut hashers[language_slot(file.syntax(db))];
            file.path(db).hash(hasher);
            file.syntax(db).hash(hasher);
            file.text(db).hash(hasher);
        }
    }
    hashers.map(|hasher| siphasher::sip128::Hasher128::finish128(&hasher).as_u128())
}

fn language_slot(syntax: Syntax) -> usize {
    match language(syntax) {
        Syntax::Ludi => 1,
        Syntax::Egg => 2,
        _ => 0,
    }
}

/// The fingerprint of the known games of `file`'s language (see [`known_games_fingerprints`]).
pub fn known_games_fingerprint(db: &dyn Db, file: SourceFile) -> u128 {
    known_games_fingerprints(db)[language_slot(file.syntax(db))]
}
