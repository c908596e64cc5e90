mod controller;
mod index;
mod status;
