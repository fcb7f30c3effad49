//! Duplicate names in a safetensors header. JSON parsers (the `safetensors` crate's too) keep
//! the last of two equal keys, so a file naming a tensor twice would silently load one of
//! two different descriptions; such a header is refused instead.

use std::collections::HashSet;
use std::fmt;

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};

/// The first key that appears twice at the top level of the JSON object `header`, if any
/// (`None` also when `header` is not an object: the format check reports that).
pub(super) fn first_duplicate(header: &[u8]) -> Option<String> {
    let mut de = serde_json::Deserializer::from_slice(header);
    de.deserialize_map(FirstDuplicate).ok().flatten()
}

struct FirstDuplicate;

impl<'de> Visitor<'de> for FirstDuplicate {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            map.next_value::<IgnoredAny>()?;
            if !seen.insert(key.clone()) {
                return Ok(Some(key));
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::first_duplicate;

    #[test]
    fn finds_the_first_repeated_top_level_key() {
        assert_eq!(
            first_duplicate(br#"{"a": {"x": 1}, "b": 2, "a": 3}"#),
            Some("a".into())
        );
        assert_eq!(first_duplicate(br#"{"a": {"a": 1, "b": 2}, "b": 3}"#), None);
        assert_eq!(first_duplicate(b"[1, 2]"), None);
    }
}
