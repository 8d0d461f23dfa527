//! `split_fn!`: an async function whose code is a WASM chunk of a *named*
//! group, fetched on its first call (the split build, see `crate::routes`).
//!
//! Leptos' `#[lazy]` gives every function a chunk of its own, and the split
//! tool then cuts the code shared between chunks into one more chunk per
//! combination of users: a page came to load about a hundred files, a few
//! hundred bytes of headers and imports each. Functions that are used
//! together belong in one chunk: a chat turn, the persona switch, the
//! restore of a stored conversation and the chips they may bring
//! (`panel_turn`); the pages' data requests, all needed
//! only for client-side navigation, and the header's suggestions
//! (`page_data`).
//!
//! On the server and in tests the function is a plain `async fn`. Unlike
//! `#[lazy]`, a call during server rendering does not ask the browser to
//! preload the chunk: none of these is needed before the page is interactive.

/// `split_fn!(group, pub async fn name(arg: Type, …) -> Output { body })`.
#[macro_export]
macro_rules! split_fn {
    (
        $group:ident,
        $(#[$meta:meta])*
        $vis:vis async fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty $body:block
    ) => {
        #[cfg(feature = "hydrate")]
        $(#[$meta])*
        #[::leptos::wasm_split::wasm_split(
            $group,
            wasm_split_path = ::leptos::wasm_split,
            return_wrapper(let future = _; { future.await } -> $ret)
        )]
        $vis fn $name(
            $($arg: $ty),*
        ) -> ::std::pin::Pin<
            ::std::boxed::Box<
                dyn ::std::future::Future<Output = $ret> + ::std::marker::Send + ::std::marker::Sync,
            >,
        > {
            // Send + Sync as resources and `Suspend` ask; the browser has
            // one thread, so the wrapper never moves it (as `#[lazy]` does).
            ::std::boxed::Box::pin(::leptos::__reexports::send_wrapper::SendWrapper::new(
                async move $body,
            ))
        }

        #[cfg(not(feature = "hydrate"))]
        $(#[$meta])*
        #[allow(clippy::unused_unit)]
        $vis async fn $name($($arg: $ty),*) -> $ret $body
    };
}
