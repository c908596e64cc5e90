mod elector;
mod naming;
