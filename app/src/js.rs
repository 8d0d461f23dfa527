//! Browser APIs reached dynamically: a property looked up on an object at
//! call time with `js_sys::Reflect` and called as a plain function, rather
//! than through web-sys's typed bindings. Browsers differ (prefixed names,
//! APIs missing altogether) and tests replace browser objects with plain
//! stand-ins that have the methods but none of the real prototype; a
//! dynamic call works on all of them, and a missing API is `None` or `Err`,
//! never a panic. The panel's voice (`speech`) and its recorder
//! (`recorder`) use these.

use js_sys::{Array, Function, Reflect};
use leptos::logging::warn;
use wasm_bindgen::{JsCast, JsValue};

/// `window`, as a plain value.
pub fn window() -> Option<JsValue> {
    web_sys::window().map(JsValue::from)
}

/// `target[key]`, or `None` when absent (undefined or null) or when reading throws.
pub fn get(target: &JsValue, key: &str) -> Option<JsValue> {
    Reflect::get(target, &JsValue::from_str(key))
        .ok()
        .filter(|v| !v.is_undefined() && !v.is_null())
}

/// `target[key] = value` (a failure is logged, not raised).
pub fn set(target: &JsValue, key: &str, value: &JsValue) {
    if let Err(e) = Reflect::set(target, &JsValue::from_str(key), value) {
        warn!("无法设置 {key}：{e:?}");
    }
}

/// `target[name]` as a function.
pub fn method(target: &JsValue, name: &str) -> Result<Function, JsValue> {
    get(target, name)
        .and_then(|f| f.dyn_into::<Function>().ok())
        .ok_or_else(|| JsValue::from_str(&format!("{name} 不是函数")))
}

/// `target.name()`, with `this` = `target`.
pub fn call0(target: &JsValue, name: &str) -> Result<JsValue, JsValue> {
    method(target, name)?.call0(target)
}

/// `target.name(arg)`, with `this` = `target`.
pub fn call1(target: &JsValue, name: &str, arg: &JsValue) -> Result<JsValue, JsValue> {
    method(target, name)?.call1(target, arg)
}

/// `new window[class](...args)`, or `Err` when there is no such class.
pub fn construct(class: &str, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    let ctor = window()
        .and_then(|w| get(&w, class))
        .and_then(|c| c.dyn_into::<Function>().ok())
        .ok_or_else(|| JsValue::from_str(&format!("没有 {class}")))?;
    let list = Array::new();
    for a in args {
        list.push(a);
    }
    Reflect::construct(&ctor, &list)
}

/// A plain object with these string and number properties.
pub fn object(props: &[(&str, JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (k, v) in props {
        set(&o, k, v);
    }
    o.into()
}
