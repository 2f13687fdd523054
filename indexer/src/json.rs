//! JSON as the site's own tools read it, except where that would hide a visibility declaration.
//!
//! `JSON.parse` (and `serde_json`) keep the last of two equal keys, so `{"x-internal": true,
//! "x-internal": false}` reads as public. A declaration that is present but contradicted is not
//! understood, and what is not understood withholds: here the values of repeated keys that declare
//! visibility (`visibility`, `x-visibility`, `x-internal`, in any case) are kept together as a list,
//! which every reader of declarations treats as unreadable. Every other repeated key keeps its last
//! value, as the renderer would.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Whether `key` declares visibility in any of the files we read (read without regard to case or
/// surrounding spaces, as [`crate::visibility::Declared`] reads it).
pub fn declares_visibility(key: &str) -> bool {
    let k = key.trim();
    ["visibility", "x-visibility", "x-internal"]
        .iter()
        .any(|w| k.eq_ignore_ascii_case(w))
}

/// Parses JSON text; repeated visibility keys become one list of their values (see the module).
/// Nesting is bounded by `serde_json`'s recursion limit (128).
pub fn parse(src: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<Keeping<false>>(src).map(|k| k.0)
}

/// Parses JSON text in which no object may repeat a key (our own configuration, `aidocs.json`:
/// `{"private": [...], "private": []}` would otherwise silently drop the first list). The error
/// names the key and its line.
pub fn parse_unique(src: &str) -> Result<Value, serde_json::Error> {
    serde_json::from_str::<Keeping<true>>(src).map(|k| k.0)
}

/// A JSON value read with repeated keys kept (`UNIQUE = false`) or refused (`UNIQUE = true`).
struct Keeping<const UNIQUE: bool>(Value);

impl<'de, const UNIQUE: bool> Deserialize<'de> for Keeping<UNIQUE> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(KeepingVisitor::<UNIQUE>).map(Keeping)
    }
}

struct KeepingVisitor<const UNIQUE: bool>;

impl<'de, const UNIQUE: bool> Visitor<'de> for KeepingVisitor<UNIQUE> {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(Keeping::<UNIQUE>(v)) = seq.next_element()? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let Keeping::<UNIQUE>(value) = map.next_value()?;
            match out.get_mut(&key) {
                Some(_) if UNIQUE => {
                    return Err(serde::de::Error::custom(format!(
                        "key `{key}` is written twice in one object"
                    )))
                }
                Some(old) if declares_visibility(&key) => {
                    let first = old.take();
                    *old = Value::Array(vec![first, value]);
                }
                _ => {
                    out.insert(key, value);
                }
            }
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_18_repeated_visibility_keys_are_kept_as_a_list() {
        let v = parse(r#"{"x-internal": true, "x-internal": false, "title": "a", "title": "b"}"#)
            .unwrap();
        assert_eq!(v["x-internal"], serde_json::json!([true, false]));
        assert_eq!(v["title"], "b", "other keys: the last wins, as JSON.parse");
        let v = parse(r#"{"a": {"Visibility": "private", "Visibility": "public"}}"#).unwrap();
        assert!(v["a"]["Visibility"].is_array());
        assert_eq!(
            parse("[1, -2, 2.5, null, \"x\"]").unwrap(),
            serde_json::json!([1, -2, 2.5, null, "x"])
        );
        let err = parse_unique("{\"visibility\": {\"private\": [\"a/**\"],\n \"private\": []}}")
            .unwrap_err();
        assert!(
            err.to_string().contains("`private` is written twice") && err.line() == 2,
            "{err}"
        );
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(parse(&deep).is_err(), "nesting is bounded");
    }
}
