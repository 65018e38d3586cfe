//! JCloisterZone tile XML imported as `tilekit import jcz` does: parsed, mapped to tilekit sets,
//! written as TOML and checked beside the bundled sets. Malformed XML is an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tiledef::Source;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(import) = tilekit_jcz::import_texts(&[("fuzz.xml".into(), text.to_owned())]) else {
        return;
    };
    let mut sources = Vec::new();
    for set in &import.sets {
        let Ok(toml) = set.toml() else {
            return;
        };
        sources.push(Source {
            name: set.file_name.clone(),
            text: toml,
        });
    }
    let mut all = tiledef::bundled_requirements(sources.iter().map(|s| s.text.as_str()));
    all.extend(sources);
    let _ = tiledef::load(all);
});
