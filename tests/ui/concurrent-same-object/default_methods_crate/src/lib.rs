mod loud;
mod syncer;
