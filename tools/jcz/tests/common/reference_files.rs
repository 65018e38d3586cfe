//! The JCloisterZone reference files (`../shared/reference/jcz`, or the folder named by
//! `TILEKIT_JCZ_REFERENCE`), for the tests of this crate and the CLI's catalogue test, which
//! includes this file by path. Both crates sit two folders below the repository root.

use std::path::PathBuf;

/// The reference XML files as (name, text), sorted by name; `None`, with a message, when the
/// folder is absent.
#[allow(dead_code)] // not every test target that includes `common` reads them
pub fn reference() -> Option<Vec<(String, String)>> {
    // The repository's `../shared/reference/jcz`; a worktree elsewhere names it in the variable.
    let dir = std::env::var_os("TILEKIT_JCZ_REFERENCE").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/reference/jcz"),
        PathBuf::from,
    );
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: {} is absent", dir.display());
        return None;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "xml"))
        .collect();
    files.sort();
    Some(
        files
            .iter()
            .map(|p| {
                let name = p.file_name().unwrap().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(p).unwrap())
            })
            .collect(),
    )
}
