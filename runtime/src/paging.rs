//! Paging: every page, or every item, of a paged operation as a [`Stream`].
//!
//! A paged operation (its spec says which parameter is the page number, which the page
//! size, which response field holds the items and which the total) implements
//! [`Paged`] in generated code; [`Pages`] then asks for the first page and the next
//! ones until the total is reached, a page comes back short or empty, or an error ends
//! the stream. Each page is one [`Client::execute`](crate::Client::execute): validated,
//! signed, verified, retried by the client's rules.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures_core::Stream;

use crate::client::{Client, Operation};
use crate::error::Error;

/// An operation whose results come in pages (implemented by generated code).
pub trait Paged: Operation + Clone + Send + 'static {
    /// One item of a page.
    type Item: Send + 'static;
    /// The number of the first page (the service counts from 1).
    const FIRST_PAGE: i64;
    /// The page this request asks for.
    fn page(&self) -> i64;
    /// The same request for another page.
    fn set_page(&mut self, page: i64);
    /// The page size this request asks for, when it says one.
    fn page_size(&self) -> Option<i64>;
    /// The items of a response, and the total number of items when the response says it.
    fn split(response: Self::Response) -> (Vec<Self::Item>, Option<i64>);
}

/// One page of a paged operation.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Page<T> {
    /// The page number asked for.
    pub number: i64,
    /// Its items, in the order received.
    pub items: Vec<T>,
    /// The total number of items over all pages, when the response says it.
    pub total: Option<i64>,
}

type Pending<O> =
    Pin<Box<dyn Future<Output = (O, Result<<O as Operation>::Response, Error>)> + Send>>;

/// The pages of a paged operation, from the request's page on. A [`Stream`]; without a
/// stream library, call [`Pages::next_page`] in a loop.
#[must_use = "a stream does nothing until polled"]
pub struct Pages<O: Paged> {
    client: Client,
    /// The request for the next page, while no page is being fetched.
    next: Option<O>,
    pending: Option<Pending<O>>,
    /// Items received so far, to stop at the total.
    seen: i64,
    done: bool,
}

impl<O: Paged> std::fmt::Debug for Pages<O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pages")
            .field("operation", &O::NAME)
            .field("seen", &self.seen)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl<O: Paged> Pages<O> {
    /// The pages of `request` (from its page number on) through `client`.
    pub fn new(client: Client, request: O) -> Pages<O> {
        Pages {
            client,
            next: Some(request),
            pending: None,
            seen: 0,
            done: false,
        }
    }

    /// The next page, `None` after the last one (or after an error).
    pub async fn next_page(&mut self) -> Option<Result<Page<O::Item>, Error>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }

    /// Every item of every page, in order (the stream ends at the first error, which it
    /// yields).
    pub fn items(self) -> Items<O> {
        Items {
            pages: self,
            buffer: Vec::new().into_iter(),
        }
    }
}

impl<O: Paged> Unpin for Pages<O> {}

impl<O: Paged> Stream for Pages<O> {
    type Item = Result<Page<O::Item>, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        if self.pending.is_none() {
            let Some(request) = self.next.take() else {
                self.done = true;
                return Poll::Ready(None);
            };
            let client = self.client.clone();
            self.pending = Some(Box::pin(async move {
                let result = client.execute(&request).await;
                (request, result)
            }));
        }
        let Some(pending) = self.pending.as_mut() else {
            return Poll::Ready(None);
        };
        let (mut request, result) = match pending.as_mut().poll(cx) {
            Poll::Pending => return Poll::Pending,
            Poll::Ready(done) => done,
        };
        self.pending = None;
        let response = match result {
            Ok(response) => response,
            Err(error) => {
                self.done = true;
                return Poll::Ready(Some(Err(error)));
            }
        };
        let number = request.page();
        let (items, total) = O::split(response);
        let count = i64::try_from(items.len()).unwrap_or(i64::MAX);
        self.seen = self.seen.saturating_add(count);
        // The last page: empty, short of the page size, or the total reached.
        let short = request.page_size().is_some_and(|size| count < size);
        let reached = total.is_some_and(|t| self.seen >= t);
        if count == 0 || short || reached || number == i64::MAX {
            self.done = true;
        } else {
            request.set_page(number + 1);
            self.next = Some(request);
        }
        Poll::Ready(Some(Ok(Page {
            number,
            items,
            total,
        })))
    }
}

/// Every item of a paged operation (see [`Pages::items`]); a [`Stream`], or call
/// [`Items::next_item`] in a loop.
#[must_use = "a stream does nothing until polled"]
pub struct Items<O: Paged> {
    pages: Pages<O>,
    buffer: std::vec::IntoIter<O::Item>,
}

impl<O: Paged> std::fmt::Debug for Items<O> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Items")
            .field("pages", &self.pages)
            .finish_non_exhaustive()
    }
}

impl<O: Paged> Unpin for Items<O> {}

impl<O: Paged> Items<O> {
    /// The next item, `None` after the last one (or after an error).
    pub async fn next_item(&mut self) -> Option<Result<O::Item, Error>> {
        std::future::poll_fn(|cx| Pin::new(&mut *self).poll_next(cx)).await
    }
}

impl<O: Paged> Stream for Items<O> {
    type Item = Result<O::Item, Error>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            if let Some(item) = self.buffer.next() {
                return Poll::Ready(Some(Ok(item)));
            }
            match Pin::new(&mut self.pages).poll_next(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(None) => return Poll::Ready(None),
                Poll::Ready(Some(Err(error))) => return Poll::Ready(Some(Err(error))),
                Poll::Ready(Some(Ok(page))) => self.buffer = page.items.into_iter(),
            }
        }
    }
}

impl Client {
    /// The pages of a paged operation, from `request`'s page on.
    pub fn pages<O: Paged>(&self, request: O) -> Pages<O> {
        Pages::new(self.clone(), request)
    }
}
