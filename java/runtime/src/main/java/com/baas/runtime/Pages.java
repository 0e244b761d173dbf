package com.baas.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The pages of a paged operation ({@link RuntimeClient#pages}), fetched one at a time as they
 * are iterated; each new iteration starts again from the first request. Paging stops at an
 * empty page, a page shorter than the page size, or once the answer's total is reached.
 * <pre>{@code
 * for (Transaction t : client.getTransListPages(request).items()) { ... }
 * long n = client.getTransListPages(request).stream().filter(...).count();
 * }</pre>
 *
 * @param <R> the page's response type
 * @param <I> the item type
 */
public final class Pages<R, I> implements Iterable<Page<I>> {
    private final RuntimeClient client;
    private final PagedOperation<R, I> first;

    Pages(RuntimeClient client, PagedOperation<R, I> first) {
        this.client = client;
        this.first = first;
    }

    /** The stop rules: what follows a page, or null after the last. */
    private static final class Walk<R, I> {
        private long seen;

        PagedOperation<R, I> after(PagedOperation<R, I> request, R response, Page<I> page) {
            seen += page.items().size();
            boolean last = page.items().isEmpty()
                    || request.requestedPageSize().isPresent() && page.items().size() < request.requestedPageSize().getAsInt()
                    || page.total().isPresent() && seen >= page.total().getAsLong();
            return last ? null : request.withPageNumber(request.pageNumber() + 1);
        }
    }

    private static <R, I> Page<I> page(PagedOperation<R, I> request, R response) {
        return new Page<>(request.pageNumber(), request.pageItems(response), request.pageTotal(response));
    }

    /**
     * The pages, each fetched when {@link Iterator#next()} asks for it.
     *
     * @return an iterator of pages
     */
    @Override
    public Iterator<Page<I>> iterator() {
        return new Iterator<>() {
            private final Walk<R, I> walk = new Walk<>();
            private PagedOperation<R, I> next = first;

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public Page<I> next() {
                if (next == null) {
                    throw new NoSuchElementException("no page after the last");
                }
                PagedOperation<R, I> request = next;
                next = null;
                R response = client.execute(request);
                Page<I> page = page(request, response);
                next = walk.after(request, response, page);
                return page;
            }
        };
    }

    /**
     * Every item of every page, in order.
     *
     * @return the items, fetched page by page as they are iterated
     */
    public Iterable<I> items() {
        return () -> new Iterator<>() {
            private final Iterator<Page<I>> pages = iterator();
            private Iterator<I> current = Collections.emptyIterator();

            @Override
            public boolean hasNext() {
                while (!current.hasNext() && pages.hasNext()) {
                    current = pages.next().items().iterator();
                }
                return current.hasNext();
            }

            @Override
            public I next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("no item after the last");
                }
                return current.next();
            }
        };
    }

    /**
     * Every item of every page as a sequential stream (pages fetched as it is consumed).
     *
     * @return the items
     */
    public Stream<I> stream() {
        return StreamSupport.stream(items().spliterator(), false);
    }

    /**
     * Every page without blocking: {@code onPage} is called for each, in order; the future
     * completes after the last, or exceptionally with the first error.
     *
     * @param onPage called with each page
     * @return completion
     */
    public CompletableFuture<Void> forEachPageAsync(Consumer<? super Page<I>> onPage) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        fetch(first, new Walk<>(), onPage, done);
        return done;
    }

    private void fetch(PagedOperation<R, I> request, Walk<R, I> walk, Consumer<? super Page<I>> onPage,
            CompletableFuture<Void> done) {
        client.executeAsync(request, CallOptions.none()).whenComplete((response, thrown) -> {
            if (thrown != null) {
                done.completeExceptionally(thrown instanceof java.util.concurrent.CompletionException
                        && thrown.getCause() != null ? thrown.getCause() : thrown);
                return;
            }
            try {
                Page<I> page = page(request, response);
                onPage.accept(page);
                PagedOperation<R, I> next = walk.after(request, response, page);
                if (next == null) {
                    done.complete(null);
                } else {
                    fetch(next, walk, onPage, done);
                }
            } catch (RuntimeException e) {
                done.completeExceptionally(e);
            }
        });
    }

    /**
     * Every item of every page, collected without blocking.
     *
     * @return the items to come
     */
    public CompletableFuture<List<I>> collectAsync() {
        List<I> all = new ArrayList<>();
        return forEachPageAsync(p -> all.addAll(p.items())).thenApply(v -> Collections.unmodifiableList(all));
    }
}
