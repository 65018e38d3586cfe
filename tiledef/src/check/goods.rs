//! Goods: the tokens markers give. A good is named by its token's `id` (else its marker's id),
//! and markers giving one good, in any loaded set, give the same good: one majority at the end.
//! So every marker giving a good must give it the same points, and the same name where both
//! name it.

use super::{Checker, Vocabulary};
use crate::model::TokenDef;

/// The first marker giving a good: where it is declared and what it says.
struct FirstGiver<'a> {
    good: &'a str,
    file: usize,
    marker: &'a str,
    token: &'a TokenDef,
}

impl Checker<'_> {
    /// Markers giving one good agree on its points and its name.
    pub(super) fn shared_goods(&mut self, vocab: &Vocabulary) {
        let files = self.files;
        let mut first: Vec<FirstGiver<'_>> = Vec::new();
        for d in &vocab.markers {
            let Some(m) = files[d.file].file.markers.get(d.at) else {
                continue;
            };
            let Some(token) = &m.token else {
                continue;
            };
            let good = token.id.as_deref().unwrap_or(&m.id);
            let Some(earlier) = first.iter().find(|g| g.good == good) else {
                first.push(FirstGiver {
                    good,
                    file: d.file,
                    marker: &m.id,
                    token,
                });
                continue;
            };
            let other = files[earlier.file].source.name().to_string();
            let ptr = format!("/marker/{}/token", d.at);
            if token.points != earlier.token.points {
                let d = self.error(
                    d.file,
                    &format!("{ptr}/points"),
                    false,
                    "tilekit::good-differs",
                    format!(
                        "the marker `{}` gives the good `{good}` {} points, but the marker `{}` gives it {}: one good has one majority, worth one number of points",
                        m.id, token.points, earlier.marker, earlier.token.points
                    ),
                );
                d.label = "other points than the first".to_string();
                d.hint = Some(format!(
                    "give `points = {}` as `{}` does ({other}), or name another good: `token = {{ id = \"…\", points = {} }}`",
                    earlier.token.points, earlier.marker, token.points
                ));
            }
            if let (Some(name), Some(first_name)) = (&token.name, &earlier.token.name)
                && name != first_name
            {
                let d = self.error(
                    d.file,
                    &format!("{ptr}/name"),
                    false,
                    "tilekit::good-differs",
                    format!(
                        "the marker `{}` names the good `{good}` \"{name}\", but the marker `{}` names it \"{first_name}\"",
                        m.id, earlier.marker
                    ),
                );
                d.label = "another name than the first".to_string();
                d.hint = Some(format!(
                    "write `name = \"{first_name}\"` as `{}` does ({other}), or leave the name out",
                    earlier.marker
                ));
            }
        }
    }
}
