//! The tile keys JCloisterZone's feature elements are written under: the keys of the bundled
//! kinds whose `jcz` is that element (`jcz = "city"` on base's `city`, whose tiles write
//! `cities`). A test holds them to the bundled declarations.

/// `<city>`: base's `city` kind.
pub const CITIES: &str = "cities";
/// `<road>`: base's `road` kind.
pub const ROADS: &str = "roads";
/// `<field>`: base's `field` kind.
pub const FIELDS: &str = "fields";
/// `<monastery>`: base's `monastery` kind.
pub const MONASTERY: &str = "monastery";
/// `<garden>`: base's `garden` kind.
pub const GARDEN: &str = "garden";
/// FanCloisterZone's `<marketplace>`: Village Life's `marketplace` kind.
pub const MARKETPLACE: &str = "marketplace";
/// The emblem count of a `<city>` (`pennants="2"`): base's pennant.
pub const PENNANTS: &str = "pennants";

/// Every key above with its element: what export writes and import reads.
pub const BY_ELEMENT: [(&str, &str); 6] = [
    ("city", CITIES),
    ("road", ROADS),
    ("field", FIELDS),
    ("monastery", MONASTERY),
    ("garden", GARDEN),
    ("marketplace", MARKETPLACE),
];

/// A tile key written as a JCloisterZone element: the element, the key, and the key of the
/// kind's emblem (a city's `pennants`), if it has one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ElementKey {
    /// The element (`city`).
    pub element: String,
    /// The tile key its features are listed under (`cities`).
    pub key: String,
    /// The key of the kind's emblem count (`pennants`).
    pub emblem: Option<String>,
}

/// The tile keys written as JCloisterZone's elements: base's (`BY_ELEMENT`), and the key of
/// every declared kind whose `jcz` names an element (an author's `castles` with
/// `jcz = "city"` is written as `<city>` too). Export maps kinds by this, never by a style.
#[derive(Clone, Debug, Default)]
pub(crate) struct Elements {
    keys: Vec<ElementKey>,
}

impl Elements {
    /// The element keys of base and of the kinds the files declare.
    pub(crate) fn of<'a>(files: impl Iterator<Item = &'a tiledef::model::TileSetFile>) -> Elements {
        let mut keys: Vec<ElementKey> = (BY_ELEMENT.iter())
            .map(|(element, key)| ElementKey {
                element: element.to_string(),
                key: key.to_string(),
                emblem: (*key == CITIES).then(|| PENNANTS.to_string()),
            })
            .collect();
        for kind in files.flat_map(|f| &f.features) {
            let Some(element) = &kind.jcz else { continue };
            let key = kind.tile_key();
            if !keys.iter().any(|k| k.key == key) {
                keys.push(ElementKey {
                    element: element.clone(),
                    key,
                    emblem: kind.emblem.as_ref().map(|e| e.count_key()),
                });
            }
        }
        Elements { keys }
    }

    /// The keys written as `element`.
    pub(crate) fn keys<'s>(&'s self, element: &'s str) -> impl Iterator<Item = &'s ElementKey> {
        self.keys.iter().filter(move |k| k.element == element)
    }

    /// The features of a tile written as `element`, each with its kind's emblem key.
    pub(crate) fn features<'t>(
        &'t self,
        tile: &'t tiledef::model::TileDef,
        element: &'t str,
    ) -> Vec<(&'t tiledef::model::FeatureDef, Option<&'t str>)> {
        (self.keys(element))
            .flat_map(|k| (tile.features_under(&k.key).iter()).map(|f| (f, k.emblem.as_deref())))
            .collect()
    }

    /// Whether a tile has a site written as `element`.
    pub(crate) fn has_site(&self, tile: &tiledef::model::TileDef, element: &str) -> bool {
        self.keys(element).any(|k| tile.has_site(&k.key))
    }

    /// The ports a feature borders of the features written as `element` (a field's cities).
    pub(crate) fn ports_under(
        &self,
        feature: &tiledef::model::FeatureDef,
        element: &str,
    ) -> Vec<tiledef::Port> {
        let mut out: Vec<tiledef::Port> = Vec::new();
        for k in self.keys(element) {
            out.extend(feature.ports_under(&k.key).iter().copied());
        }
        out
    }

    /// Whether a tile key is written as an element.
    pub(crate) fn writes(&self, key: &str) -> bool {
        self.keys.iter().any(|k| k.key == key)
    }

    /// Whether an element is written at all (a kind id used as an element name).
    pub(crate) fn is_element(&self, element: &str) -> bool {
        self.keys.iter().any(|k| k.element == element)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_are_the_bundled_kinds_keys_by_their_jcz_element() {
        let set = tiledef::load_bundled();
        for (element, key) in BY_ELEMENT {
            let kind = set.feature_kinds.iter().find(|k| k.key == key);
            let kind = kind.unwrap_or_else(|| panic!("no bundled kind writes `{key}`"));
            assert_eq!(
                kind.jcz.as_deref(),
                Some(element),
                "the kind writing `{key}`"
            );
        }
        let city = set.feature_kinds.iter().find(|k| k.key == CITIES);
        let emblem = city.and_then(|k| k.emblem.as_ref()).map(|e| e.key.as_str());
        assert_eq!(emblem, Some(PENNANTS));
    }
}
