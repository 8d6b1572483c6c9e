//! The Java test clients (`fixtures/tables/*.java`, Swing), compiled with `javac` into a temporary folder and run
//! with `java` on a test's desktop.

use std::process::Command;

use super::desktop::Desktop;
use super::{path_str, repo};

/// One compiled client: its classes, kept as long as the value.
pub struct JavaClient {
    classes: tempfile::TempDir,
    main: String,
}

impl JavaClient {
    /// Compiles `fixtures/tables/<main>.java`.
    pub fn compile(main: &str) -> JavaClient {
        let classes = tempfile::tempdir().expect("a temporary folder for the classes");
        let source = repo().join("fixtures/tables").join(format!("{main}.java"));
        let out = Command::new("javac").arg("-d").arg(classes.path()).arg(&source).output().expect("javac runs");
        assert!(out.status.success(), "javac {}: {}", source.display(), String::from_utf8_lossy(&out.stderr));
        JavaClient { classes, main: main.to_owned() }
    }

    /// Starts the client on `desktop` with `args`; it is ended with the desktop.
    pub fn spawn(&self, desktop: &mut Desktop, args: &[&str]) {
        let classes = path_str(self.classes.path());
        let mut all = vec!["-cp", classes.as_str(), self.main.as_str()];
        all.extend_from_slice(args);
        desktop.spawn("java", &all, &[]);
    }
}
