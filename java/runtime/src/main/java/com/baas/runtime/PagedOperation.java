package com.baas.runtime;

import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * An operation whose results come in pages (generated): how to ask for another page and how
 * to find the items and the total in an answer. (Its methods' names are
 * chosen so that no request field's getter can take them.) {@link RuntimeClient#pages} walks them.
 *
 * @param <R> the typed response of one page
 * @param <I> the type of one item
 */
public interface PagedOperation<R, I> extends Operation<R> {
    /**
     * The page this request asks for.
     *
     * @return the page number
     */
    int pageNumber();

    /**
     * This request for another page.
     *
     * @param page the page number
     * @return a new request
     */
    PagedOperation<R, I> withPageNumber(int page);

    /**
     * The page size asked for, when the request sets one.
     *
     * @return the size, or empty
     */
    OptionalInt requestedPageSize();

    /**
     * The items of one page's answer.
     *
     * @param response the answer
     * @return the items, empty when there are none
     */
    List<I> pageItems(R response);

    /**
     * The number of items over all pages, when the answer says it.
     *
     * @param response the answer
     * @return the total, or empty
     */
    OptionalLong pageTotal(R response);
}
