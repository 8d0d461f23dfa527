//! `server import`'s switches, as the write path reads them (the command
//! line itself is clap's: `cli::commands::ImportCommand`).

/// The switches of an import.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Say what would happen; write nothing.
    pub dry_run: bool,
    /// Write the good lines even when there are bad ones.
    pub skip_bad: bool,
}
