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
