mod marks;
mod run;
mod watcher;
