// Keeps the provided `sync` of `Syncer`.
pub struct Loud {
    pub app: String,
}

impl crate::syncer::Syncer for Loud {
    fn app(&self) -> &str {
        &self.app
    }
}
