//! End-to-end tests of `tilekit import jcz` and `tilekit export jcz`: files written, report,
//! exit codes, refusals.

mod common;

use common::{scratch, text, tilekit};

const BASIC: &str = "tools/jcz/tests/fixtures/mini-basic.xml";
const EXPANSION: &str = "tools/jcz/tests/fixtures/mini-expansion.xml";

#[test]
fn import_writes_valid_sets_a_schema_and_a_report() {
    let out_dir = scratch("jcz-import");
    let out = tilekit(&[
        "import",
        "jcz",
        BASIC,
        EXPANSION,
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("mini-basic.xml: 7 tile types → base.toml; 2 not carried over"),
        "{stdout}"
    );
    for file in [
        "base.toml",
        "mini-1.toml",
        "mini-river.toml",
        "jcz.toml",
        "tileset.schema.json",
    ] {
        assert!(out_dir.join(file).is_file(), "{file} missing");
    }
    let base = std::fs::read_to_string(out_dir.join("base.toml")).unwrap();
    assert!(
        base.starts_with(
            "#:schema ./tileset.schema.json\n# Imported from JCloisterZone's mini-basic.xml"
        ),
        "{base}"
    );
    assert_eq!(base.matches("[[tile]]").count(), 7);
    let report = std::fs::read_to_string(out_dir.join("import-report.txt")).unwrap();
    assert!(
        report.contains("BA/LR: monastery@wagon-move \"a\"; road@wagon-move \"a\""),
        "{report}"
    );
    assert!(report.contains("## Summary"), "{report}");
    // A second import into the same folder keeps the vocabulary the first one declared.
    let inn = "tools/jcz/tests/fixtures/mini-inn.xml";
    let again = tilekit(&["import", "jcz", inn, "--out", out_dir.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    let vocabulary = std::fs::read_to_string(out_dir.join("jcz.toml")).unwrap();
    assert!(vocabulary.contains("id = \"inn\""), "{vocabulary}");
    assert!(vocabulary.contains("id = \"river\""), "{vocabulary}");
    assert!(vocabulary.contains("id = \"festival\""), "{vocabulary}");
    // What was written validates with `tilekit validate` too.
    let mini = out_dir.join("mini-1.toml");
    let check = tilekit(&[
        "validate",
        mini.to_str().unwrap(),
        out_dir.join("jcz.toml").to_str().unwrap(),
    ]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
}

#[test]
fn import_refuses_bad_input_with_the_right_exit_code() {
    let dir = scratch("jcz-bad");
    let malformed = tilekit(&[
        "import",
        "jcz",
        "tools/jcz/tests/fixtures/malformed.xml",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(malformed.status.code(), Some(1));
    assert!(
        text(&malformed.stderr).contains("malformed.xml:6:"),
        "{}",
        text(&malformed.stderr)
    );
    let port = tilekit(&[
        "import",
        "jcz",
        "tools/jcz/tests/fixtures/bad-port.xml",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(port.status.code(), Some(1));
    assert!(
        text(&port.stderr).contains("tile `BAD/2`: `SX`"),
        "{}",
        text(&port.stderr)
    );
    // A folder with no XML, --out that is a file, --out that is an input.
    let empty = scratch("jcz-empty");
    let none = tilekit(&[
        "import",
        "jcz",
        empty.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(none.status.code(), Some(2));
    assert!(
        text(&none.stderr).contains("has no .xml file"),
        "{}",
        text(&none.stderr)
    );
    let file_out = tilekit(&["import", "jcz", BASIC, "--out", BASIC]);
    assert_eq!(file_out.status.code(), Some(2));
    assert!(
        text(&file_out.stderr).contains("is a file"),
        "{}",
        text(&file_out.stderr)
    );
    let fixtures = "tools/jcz/tests/fixtures";
    let into_input = tilekit(&["import", "jcz", fixtures, "--out", fixtures]);
    assert_eq!(into_input.status.code(), Some(2));
    assert!(
        text(&into_input.stderr).contains("is one of the inputs"),
        "{}",
        text(&into_input.stderr)
    );
    // Nothing was written by the refused runs.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn export_writes_jcz_xml_of_the_bundled_base_and_reports_what_it_cannot_say() {
    let dir = scratch("jcz-export");
    let xml = dir.join("basic.xml");
    let out = tilekit(&[
        "export",
        "jcz",
        "definitions/base.toml",
        "--out",
        xml.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&xml).unwrap();
    assert!(written.contains("<tile id=\"BA/RCr\">"), "{written}");
    assert!(written.contains("<tile-set id=\"basic:1\">"), "{written}");
    assert!(
        written.contains("<ref count=\"5\" tile=\"BA/C\" />"),
        "{written}"
    );
    let stderr = text(&out.stderr);
    assert!(stderr.contains("start: this is the start tile"), "{stderr}");
    // The export imports back to the base game's 32 tile types.
    let back = dir.join("back");
    let again = tilekit(&[
        "import",
        "jcz",
        xml.to_str().unwrap(),
        "--out",
        back.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    let base = std::fs::read_to_string(back.join("base.toml")).unwrap();
    assert_eq!(base.matches("[[tile]]").count(), 32);
    // Village Life's bushes, flowers and marketplaces are reported.
    let vl = tilekit(&[
        "export",
        "jcz",
        "definitions/village-life.toml",
        "--out",
        dir.join("vl.xml").to_str().unwrap(),
    ]);
    assert_eq!(vl.status.code(), Some(0), "{}", text(&vl.stderr));
    let stderr = text(&vl.stderr);
    for kind in [
        "edge kind",
        "flowers",
        "marketplace",
        "marker not in JCZ",
        "road end",
    ] {
        assert!(stderr.contains(&format!("  {kind}\n")), "{kind}: {stderr}");
    }
    // Tiles whose ids are not JCZ ids import back under the same ids, without a clashing alias.
    let vl_back = dir.join("vl-back");
    let again = tilekit(&[
        "import",
        "jcz",
        dir.join("vl.xml").to_str().unwrap(),
        "--out",
        vl_back.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    let vl = std::fs::read_to_string(vl_back.join("village-life.toml")).unwrap();
    assert!(vl.contains("id = \"VL-01\"\ncount = 1\n"), "{vl}");
    // --out that is a folder is refused.
    let folder = tilekit(&[
        "export",
        "jcz",
        "definitions/base.toml",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(folder.status.code(), Some(2));
}
