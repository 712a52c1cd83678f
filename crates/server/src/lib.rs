//! The web game: an axum server with the games kept in SQLite and the
//! browser UI embedded in the binary.
