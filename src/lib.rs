pub mod discover;
pub mod source;
