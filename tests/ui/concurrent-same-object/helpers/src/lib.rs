mod children;
mod reconcile;
mod status;
mod util;

pub struct App;
