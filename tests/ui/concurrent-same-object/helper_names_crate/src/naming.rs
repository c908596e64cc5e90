// No requests here: the names are built here and used in `elector.rs`.
pub fn lease_name(app: &str) -> String {
    format!("{app}-lease")
}
