mod controller;
mod events;

fn main() {}
