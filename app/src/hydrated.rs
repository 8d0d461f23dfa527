//! "The page has been hydrated": one signal for the whole app.
//!
//! An effect that changes what a component draws (the microphone button once
//! the browser says it can listen, a restored conversation) must not run
//! before hydration has reached the nodes the server rendered, or hydration
//! finds other nodes. Such effects wait for [`Hydrated`]; so do the panel's
//! controls, which come alive when the whole page has. It is also marked on
//! the document (`<html data-hydrated>`), where the page's script that
//! reports a WASM that never arrived (`crate::load_failure`) looks.

use leptos::prelude::*;

/// True once hydration has finished (always false on the server).
#[derive(Clone, Copy)]
pub struct Hydrated(pub ReadSignal<bool>);

impl Hydrated {
    /// Creates the signal, starts watching for the end of hydration and
    /// provides it to the app. Called once, in `App`.
    pub fn provide() -> Self {
        let (done, set_done) = signal(false);
        #[cfg(feature = "hydrate")]
        watch(Owner::current(), set_done);
        #[cfg(not(feature = "hydrate"))]
        let _ = set_done;
        let hydrated = Hydrated(done);
        provide_context(hydrated);
        hydrated
    }

    pub fn expect() -> Self {
        expect_context::<Hydrated>()
    }

    pub fn get(self) -> bool {
        self.0.get()
    }
}

/// Leptos marks the end of hydration on the shared context and has no
/// callback for it: look every few milliseconds until it is marked (a handful
/// of looks on a fast page, the chunk's download time on a slow one).
#[cfg(feature = "hydrate")]
fn watch(owner: Option<Owner>, set_done: WriteSignal<bool>) {
    let hydrating = owner.as_ref().is_some_and(|o| {
        o.with(Owner::current_shared_context)
            .is_some_and(|c| c.during_hydration())
    });
    if hydrating {
        set_timeout(
            move || watch(owner, set_done),
            std::time::Duration::from_millis(5),
        );
    } else {
        if let Some(html) = document().document_element() {
            let _ = html.set_attribute("data-hydrated", "");
        }
        set_done.set(true);
    }
}
