//! The salsa database.

/// The database trait every analysis query takes. Later layers extend it when they need more than
/// the inputs (e.g. workspace-wide look-ups for `is like` and nearest games).
#[salsa::db]
pub trait Db: salsa::Database {}

/// The one concrete database. Cloning it is cheap and gives a handle on the same storage: the
/// language server hands clones to background work, the CLI one to each worker thread.
#[salsa::db]
#[derive(Clone, Default)]
pub struct RootDatabase {
    storage: salsa::Storage<Self>,
}

#[salsa::db]
impl salsa::Database for RootDatabase {}

#[salsa::db]
impl Db for RootDatabase {}
