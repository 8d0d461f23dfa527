//! Type-erased views without the asynchronous hydration code.
//!
//! The browser hydrates synchronously (`hydrate_body`). Still, `into_any()`
//! compiles an async hydration future for every view type it erases, next to
//! the synchronous hydration, because `AnyView` can be asked for either;
//! those futures are large (deeply nested state machines) and would be a
//! good part of the WASM. [`IntoAnySync::into_any_sync`] is `into_any()` for a
//! view wrapped in [`SyncHydrate`], whose async hydration is the trait's
//! default (the synchronous one in a ready future): every erased view in the
//! app goes through it. On the server and in client rendering it passes
//! straight through.

use std::future::Future;

use leptos::prelude::*;
use leptos::tachys::html::attribute::any_attribute::AnyAttribute;
use leptos::tachys::html::attribute::Attribute;
use leptos::tachys::hydration::Cursor;
use leptos::tachys::ssr::StreamBuilder;
use leptos::tachys::view::add_attr::AddAnyAttr;
use leptos::tachys::view::{Position, PositionState, Render, RenderHtml};

/// A view whose async hydration is its synchronous one; in every other
/// respect it is the view it wraps.
pub struct SyncHydrate<V>(pub V);

impl<V: Render> Render for SyncHydrate<V> {
    type State = V::State;

    fn build(self) -> Self::State {
        self.0.build()
    }

    fn rebuild(self, state: &mut Self::State) {
        self.0.rebuild(state)
    }
}

impl<V: RenderHtml> AddAnyAttr for SyncHydrate<V> {
    type Output<SomeNewAttr: Attribute> = SyncHydrate<V::Output<SomeNewAttr>>;

    fn add_any_attr<NewAttr: Attribute>(self, attr: NewAttr) -> Self::Output<NewAttr>
    where
        Self::Output<NewAttr>: RenderHtml,
    {
        SyncHydrate(self.0.add_any_attr(attr))
    }
}

impl<V: RenderHtml> RenderHtml for SyncHydrate<V> {
    type AsyncOutput = SyncHydrate<V::AsyncOutput>;
    type Owned = SyncHydrate<V::Owned>;

    const MIN_LENGTH: usize = V::MIN_LENGTH;
    const EXISTS: bool = V::EXISTS;

    fn dry_resolve(&mut self) {
        self.0.dry_resolve()
    }

    fn resolve(self) -> impl Future<Output = Self::AsyncOutput> + Send {
        let inner = self.0.resolve();
        async move { SyncHydrate(inner.await) }
    }

    fn html_len(&self) -> usize {
        self.0.html_len()
    }

    fn to_html_with_buf(
        self,
        buf: &mut String,
        position: &mut Position,
        escape: bool,
        mark_branches: bool,
        extra_attrs: Vec<AnyAttribute>,
    ) {
        self.0
            .to_html_with_buf(buf, position, escape, mark_branches, extra_attrs)
    }

    fn to_html_async_with_buf<const OUT_OF_ORDER: bool>(
        self,
        buf: &mut StreamBuilder,
        position: &mut Position,
        escape: bool,
        mark_branches: bool,
        extra_attrs: Vec<AnyAttribute>,
    ) where
        Self: Sized,
    {
        self.0.to_html_async_with_buf::<OUT_OF_ORDER>(
            buf,
            position,
            escape,
            mark_branches,
            extra_attrs,
        )
    }

    fn hydrate<const FROM_SERVER: bool>(
        self,
        cursor: &Cursor,
        position: &PositionState,
    ) -> Self::State {
        self.0.hydrate::<FROM_SERVER>(cursor, position)
    }

    // `hydrate_async` is the trait's default: `hydrate::<true>` in a ready
    // future. That is the point of this type.

    fn into_owned(self) -> Self::Owned {
        SyncHydrate(self.0.into_owned())
    }
}

/// `into_any()` without the async hydration code.
pub trait IntoAnySync {
    fn into_any_sync(self) -> AnyView;
}

impl<V: RenderHtml + 'static> IntoAnySync for V {
    fn into_any_sync(self) -> AnyView {
        SyncHydrate(self).into_any()
    }
}
