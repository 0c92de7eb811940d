//! Conversions between `JsValue` and serde data (`protocol::convert`): round trips of the
//! shapes hosts use, and the refusals, each naming where and what.

use std::collections::{BTreeMap, HashMap};

use codemode_executor::protocol::{Binary, BinaryKind, JsValue, from_js_value, to_js_value};
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
enum Shape {
    Empty,
    Circle(f64),
    Segment(i32, i32),
    Rect { w: u16, h: u16 },
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
#[serde(rename_all = "camelCase")]
struct Inner {
    label: String,
    tags: Vec<String>,
    maybe_count: Option<u64>,
}

#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Outer {
    id: i64,
    ratio: f64,
    flag: bool,
    letter: char,
    inner: Inner,
    inners: Vec<Inner>,
    shapes: Vec<Shape>,
    by_name: BTreeMap<String, i32>,
    by_number: BTreeMap<u32, String>,
    pair: (u8, String),
    #[serde(with = "serde_bytes")]
    blob: Vec<u8>,
    nothing: Option<String>,
}

fn sample() -> Outer {
    Outer {
        id: -9_007_199_254_740_991,
        ratio: 0.1 + 0.2,
        flag: true,
        letter: 'é',
        inner: Inner {
            label: "a \"quoted\" label".into(),
            tags: vec!["x".into(), "y".into()],
            maybe_count: Some(3),
        },
        inners: vec![Inner {
            label: String::new(),
            tags: vec![],
            maybe_count: None,
        }],
        shapes: vec![
            Shape::Empty,
            Shape::Circle(1.5),
            Shape::Segment(-1, 2),
            Shape::Rect { w: 3, h: 4 },
        ],
        by_name: BTreeMap::from([("one".into(), 1), ("two".into(), 2)]),
        by_number: BTreeMap::from([(7, "seven".into()), (10, "ten".into())]),
        pair: (255, "max".into()),
        blob: vec![0, 1, 254, 255],
        nothing: None,
    }
}

fn object(entries: Vec<(&str, JsValue)>) -> JsValue {
    JsValue::Object(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())
}

fn text(s: &str) -> JsValue {
    JsValue::String(s.into())
}

#[test]
fn nested_structs_enums_maps_and_bytes_round_trip() {
    let value = sample();
    let js = to_js_value(&value).unwrap();
    assert_eq!(from_js_value::<Outer>(js).unwrap(), value);
}

#[test]
fn values_take_the_shape_javascript_would_write() {
    let js = to_js_value(&sample()).unwrap();
    let JsValue::Object(entries) = js else {
        panic!("a struct is an object: {js:?}");
    };
    let get = |key: &str| entries.iter().find(|(k, _)| k == key).unwrap().1.clone();
    assert_eq!(get("id"), JsValue::Number(-9_007_199_254_740_991.0));
    assert_eq!(
        get("inner"),
        object(vec![
            ("label", text("a \"quoted\" label")),
            ("tags", JsValue::Array(vec![text("x"), text("y")])),
            ("maybeCount", JsValue::Number(3.0)),
        ])
    );
    assert_eq!(
        get("shapes"),
        JsValue::Array(vec![
            text("Empty"),
            object(vec![("Circle", JsValue::Number(1.5))]),
            object(vec![(
                "Segment",
                JsValue::Array(vec![JsValue::Number(-1.0), JsValue::Number(2.0)])
            )]),
            object(vec![(
                "Rect",
                object(vec![
                    ("w", JsValue::Number(3.0)),
                    ("h", JsValue::Number(4.0))
                ])
            )]),
        ])
    );
    assert_eq!(
        get("by_number"),
        object(vec![("7", text("seven")), ("10", text("ten"))])
    );
    assert_eq!(
        get("blob"),
        JsValue::Binary(Binary {
            kind: BinaryKind::Uint8Array,
            bytes: vec![0, 1, 254, 255]
        })
    );
    assert_eq!(get("nothing"), JsValue::Null);
    assert_eq!(to_js_value(&()).unwrap(), JsValue::Undefined);
}

#[test]
fn undefined_null_and_missing_properties_read_as_none() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Optional {
        a: Option<i32>,
        b: Option<i32>,
        c: Option<i32>,
    }
    let js = object(vec![("a", JsValue::Undefined), ("b", JsValue::Null)]);
    assert_eq!(
        from_js_value::<Optional>(js).unwrap(),
        Optional {
            a: None,
            b: None,
            c: None
        }
    );
    assert_eq!(from_js_value::<()>(JsValue::Undefined).unwrap(), ());
}

#[test]
fn binary_reads_as_bytes_whatever_the_target() {
    let binary = JsValue::Binary(Binary {
        kind: BinaryKind::ArrayBuffer,
        bytes: vec![1, 2, 3],
    });
    assert_eq!(
        from_js_value::<ByteBuf>(binary.clone()).unwrap().into_vec(),
        vec![1, 2, 3]
    );
    assert_eq!(
        from_js_value::<Vec<u8>>(binary.clone()).unwrap(),
        vec![1, 2, 3]
    );
    assert_eq!(from_js_value::<[u8; 3]>(binary).unwrap(), [1, 2, 3]);
    let numbers = JsValue::Array(vec![JsValue::Number(4.0), JsValue::Number(5.0)]);
    assert_eq!(
        from_js_value::<ByteBuf>(numbers).unwrap().into_vec(),
        vec![4, 5]
    );
}

#[test]
fn javascript_only_values_read_as_their_json_like_forms() {
    assert_eq!(
        from_js_value::<String>(JsValue::Date(0.0)).unwrap(),
        "1970-01-01T00:00:00.000Z"
    );
    assert_eq!(
        from_js_value::<i128>(JsValue::BigInt(
            "-170141183460469231731687303715884105728".into()
        ))
        .unwrap(),
        i128::MIN
    );
    assert_eq!(
        from_js_value::<u64>(JsValue::BigInt("18446744073709551615".into())).unwrap(),
        u64::MAX
    );
    let map = JsValue::Map(vec![(text("a"), JsValue::Number(1.0))]);
    assert_eq!(
        from_js_value::<HashMap<String, u8>>(map).unwrap(),
        HashMap::from([("a".to_string(), 1)])
    );
    let set = JsValue::Set(vec![JsValue::Number(1.0), JsValue::Number(2.0)]);
    assert_eq!(from_js_value::<Vec<u8>>(set).unwrap(), vec![1, 2]);
    #[derive(Deserialize, Debug, PartialEq)]
    struct Thrown {
        name: String,
        message: String,
    }
    assert_eq!(
        from_js_value::<Thrown>(JsValue::Error {
            name: "TypeError".into(),
            message: "x".into()
        })
        .unwrap(),
        Thrown {
            name: "TypeError".into(),
            message: "x".into()
        }
    );
}

#[test]
fn tuples_read_arrays_as_functions_read_arguments() {
    let one = JsValue::Array(vec![JsValue::Number(1.0)]);
    assert_eq!(
        from_js_value::<(i32, Option<String>)>(one).unwrap(),
        (1, None)
    );
    let three = JsValue::Array(vec![JsValue::Number(1.0), text("b"), JsValue::Bool(true)]);
    assert_eq!(
        from_js_value::<(i32, String)>(three).unwrap(),
        (1, "b".to_string())
    );
}

fn refusal<T: serde::de::DeserializeOwned + std::fmt::Debug>(value: JsValue) -> String {
    from_js_value::<T>(value).unwrap_err().to_string()
}

#[test]
fn integers_beyond_what_a_number_holds_are_refused_both_ways() {
    assert_eq!(
        to_js_value(&9_007_199_254_740_993_i64)
            .unwrap_err()
            .to_string(),
        "The Rust value has no JavaScript form: at value, the integer 9007199254740993 is beyond what a JavaScript number holds exactly (±9007199254740991); send it as a string."
    );
    #[derive(Serialize)]
    struct Ids {
        ids: Vec<u64>,
    }
    assert_eq!(
        to_js_value(&Ids {
            ids: vec![1, u64::MAX]
        })
        .unwrap_err()
        .to_string(),
        "The Rust value has no JavaScript form: at value.ids[1], the integer 18446744073709551615 is beyond what a JavaScript number holds exactly (±9007199254740991); send it as a string."
    );
    assert!(to_js_value(&i128::MIN).is_err());
    assert_eq!(
        to_js_value(&9_007_199_254_740_991_u64).unwrap(),
        JsValue::Number(9_007_199_254_740_991.0)
    );
    assert_eq!(
        refusal::<i64>(JsValue::Number(1e20)),
        "The value does not fit the Rust type: at value, the number 100000000000000000000 is beyond the integers a JavaScript number holds exactly (±9007199254740991), so it cannot be read as i64; send it as a string or a BigInt."
    );
    // As a float it is fine.
    assert_eq!(from_js_value::<f64>(JsValue::Number(1e20)).unwrap(), 1e20);
}

#[test]
fn refusals_name_where_and_what() {
    let fits = "The value does not fit the Rust type";
    assert_eq!(
        refusal::<Inner>(object(vec![("label", text("x"))])),
        format!("{fits}: at value, missing field `tags`.")
    );
    assert_eq!(
        refusal::<Vec<Inner>>(JsValue::Array(vec![object(vec![
            ("label", text("x")),
            (
                "tags",
                JsValue::Array(vec![text("a"), JsValue::Number(3.0)])
            ),
        ])])),
        format!("{fits}: at value[0].tags[1], invalid type: number `3`, expected a string.")
    );
    assert_eq!(
        refusal::<u8>(JsValue::Number(300.0)),
        format!("{fits}: at value, invalid value: number `300`, expected u8.")
    );
    assert_eq!(
        refusal::<i32>(JsValue::Number(1.5)),
        format!("{fits}: at value, invalid type: number `1.5`, expected i32.")
    );
    assert_eq!(
        refusal::<String>(JsValue::Undefined),
        format!("{fits}: at value, invalid type: undefined, expected a string.")
    );
    assert_eq!(
        refusal::<Inner>(JsValue::Null),
        format!("{fits}: at value, invalid type: null, expected struct Inner.")
    );
    assert_eq!(
        refusal::<String>(object(vec![])),
        format!("{fits}: at value, invalid type: object, expected a string.")
    );
    assert_eq!(
        refusal::<Shape>(text("Triangle")),
        format!(
            "{fits}: at value, unknown variant `Triangle`, expected one of `Empty`, `Circle`, `Segment`, `Rect`."
        )
    );
    assert_eq!(
        refusal::<Shape>(object(vec![(
            "Rect",
            object(vec![("w", JsValue::Number(1.0))])
        )])),
        format!("{fits}: at value.Rect, missing field `h`.")
    );
    assert_eq!(
        refusal::<Shape>(JsValue::Number(1.0)),
        format!(
            "{fits}: at value, expected enum Shape as a variant's name (a string) or as an object with exactly one property, found the number 1."
        )
    );
    assert_eq!(
        refusal::<BTreeMap<u32, String>>(object(vec![("seven", text("7"))])),
        format!("{fits}: at value.seven, the property name \"seven\" is not a u32.")
    );
    assert_eq!(
        refusal::<HashMap<String, i32>>(object(vec![("two words", text("x"))])),
        format!("{fits}: at value[\"two words\"], invalid type: string \"x\", expected i32.")
    );
}

#[test]
fn map_keys_must_become_property_names() {
    let map = BTreeMap::from([((1, 2), "pair")]);
    assert_eq!(
        to_js_value(&map).unwrap_err().to_string(),
        "The Rust value has no JavaScript form: at value, a map key must be a string or a number to become a property name, not an array (a sequence or tuple)."
    );
}
