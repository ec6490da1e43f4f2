//! The exit statuses of every command (the contract CI scripts rely on).

pub const CLEAN: u8 = 0;
pub const PROBLEMS_FOUND: u8 = 1;
pub const FAILURE: u8 = 2;
