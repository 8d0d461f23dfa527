//! "The page has been hydrated": one signal for the whole app.
//!
//! The split build hydrates asynchronously (`hydrate_lazy`, see
//! `crate::routes`): the components run, then hydration waits for the page's
//! chunk before it reaches the nodes after it. Effects created by the
//! components run meanwhile, so an effect that changes what a component
//! draws (the microphone button once the browser says it can listen, a
//! restored conversation) would change it before hydration has reached it,
//! and hydration would find other nodes than the server rendered. Such
//! effects wait for [`Hydrated`] instead; so do the panel's controls, which
//! come alive when the whole page has.

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
        set_done.set(true);
    }
}
