package com.baas.runtime;

import com.baas.signing.Notification;
import com.baas.signing.NotificationException;
import com.baas.signing.NotificationVerifier;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A receiver's whole job for one callback, framework-neutral: the request body in, the body
 * to answer out. It verifies the body exactly as received ({@link NotificationVerifier}),
 * processes a notification once per ({@code requestId}, {@code notificationType}), records it
 * in the {@link ProcessedIds} store, and returns {@link #ACK}; a repeated delivery is only
 * acknowledged.
 * <pre>{@code
 * NotificationHandler handler = new NotificationHandler(verifier, new FileProcessedIds(path), n -> {
 *     // your processing, e.g. Payload.of(n) from the generated client
 * });
 * String answer = handler.handle(bodyBytes);   // "ok"; NotificationException when refused
 * }</pre>
 * A refused body throws {@link NotificationException}: answer anything but {@code ok} (e.g.
 * HTTP 400) and process nothing. An exception of {@code process} propagates without recording:
 * answer an error, and the service delivers it again. If recording fails after processing, the
 * notification is acknowledged anyway (it was processed; refusing would have it processed again
 * on every re-delivery), kept as processed in memory, and the failure is logged at ERROR on the
 * {@code com.baas} logger with its id, for you to reconcile.
 */
public final class NotificationHandler {
    /** The body to answer once a notification is processed (or known as a repeat). */
    public static final String ACK = NotificationVerifier.ACK;

    private static final System.Logger LOG = System.getLogger("com.baas");

    private final NotificationVerifier verifier;
    private final ProcessedIds store;
    private final Consumer<Notification> process;
    private final Set<ProcessedIds.DeliveryId> unrecorded = ConcurrentHashMap.newKeySet();

    /**
     * A handler.
     *
     * @param verifier the verifier (your key and the service's sender)
     * @param store the processed ids
     * @param process what to do with a new notification
     */
    public NotificationHandler(NotificationVerifier verifier, ProcessedIds store, Consumer<Notification> process) {
        this.verifier = Objects.requireNonNull(verifier, "verifier");
        this.store = Objects.requireNonNull(store, "store");
        this.process = Objects.requireNonNull(process, "process");
    }

    /**
     * Handles one delivery.
     *
     * @param body the request body exactly as received
     * @return {@link #ACK}, the body to answer
     * @throws NotificationException when the body is refused (answer anything but {@code ok})
     */
    public String handle(byte[] body) {
        Notification n = verifier.verify(body);
        ProcessedIds.DeliveryId id = new ProcessedIds.DeliveryId(n.requestId(), n.notificationType());
        synchronized (this) {
            if (!store.isNew(id) || unrecorded.contains(id)) {
                return ACK;
            }
            process.accept(n);
            try {
                store.record(id);
            } catch (RuntimeException e) {
                unrecorded.add(id);
                LOG.log(Level.ERROR, "notification " + id + " was processed but could not be recorded as such: "
                        + e + "; acknowledged anyway (a restart may process a re-delivery of it again)");
            }
        }
        return ACK;
    }

    @Override
    public String toString() {
        return "NotificationHandler[" + verifier + ", " + store + "]";
    }
}
