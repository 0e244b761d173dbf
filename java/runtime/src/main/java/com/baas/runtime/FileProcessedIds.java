package com.baas.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@link ProcessedIds} in an append-only file that survives a restart (one receiver process
 * at a time), in the format the Rust, Python and TypeScript SDKs write (the shared
 * {@code tests/data/seen-file.json}): after the {@link #HEADER} line, each line is {@code <recordedAtMillis> <type> <requestId>}, the type and the
 * requestId escaped so that any text is kept exactly (a space, {@code %}, line breaks, U+2028,
 * U+0085 and every other character outside printable ASCII are written {@code %XX} per UTF-8
 * byte). Opening drops the entries recorded longer ago than the horizon and rewrites the file
 * (created readable by its owner only); {@link #record} appends and forces the line to disk
 * before it returns.
 */
public final class FileProcessedIds implements ProcessedIds {
    /**
     * How long an id is kept by default, from when it was recorded: 30 days, longer than any
     * re-delivery schedule of the service (5 attempts within a day).
     */
    public static final Duration DEFAULT_HORIZON = Duration.ofDays(30);

    /** The file's first line, as every SDK of this API writes it (the format is shared). */
    public static final String HEADER =
            "# baas seen-notifications v2: <recorded epoch ms> <notificationType> <requestId>, %XX-escaped";

    private final Path path;
    private final Clock clock;
    private final Map<DeliveryId, Long> seen = new LinkedHashMap<>();

    /**
     * Opens (or creates) the file with the default horizon.
     *
     * @param path the file
     * @throws UncheckedIOException when it cannot be read or rewritten
     */
    public FileProcessedIds(Path path) {
        this(path, DEFAULT_HORIZON, Clock.systemUTC());
    }

    /**
     * Opens (or creates) the file.
     *
     * @param path the file
     * @param horizon how long an id is kept after it was recorded
     * @param clock the clock recording times are read from
     * @throws UncheckedIOException when it cannot be read or rewritten
     */
    public FileProcessedIds(Path path, Duration horizon, Clock clock) {
        this.path = path;
        this.clock = clock;
        long now = clock.millis();
        try {
            if (Files.exists(path)) {
                String text = new String(Files.readAllBytes(path), StandardCharsets.UTF_8);
                for (String line : text.split("\n", -1)) {
                    String[] parts = line.split(" ", -1);
                    if (parts.length != 3 || !parts[0].matches("-?[0-9]{1,18}")) {
                        continue;
                    }
                    long stamp = Long.parseLong(parts[0]);
                    if (now - stamp <= horizon.toMillis()) {
                        seen.put(new DeliveryId(unescape(parts[2]), unescape(parts[1])), stamp);
                    }
                }
            }
            rewrite();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the processed-ids file " + path, e);
        }
    }

    private void rewrite() throws IOException {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        createPrivate(tmp);
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        for (Map.Entry<DeliveryId, Long> e : seen.entrySet()) {
            b.append(line(e.getKey(), e.getValue()));
        }
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(ByteBuffer.wrap(b.toString().getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void createPrivate(Path file) throws IOException {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(file);
        }
    }

    private static String line(DeliveryId id, long stamp) {
        return stamp + " " + escape(id.notificationType()) + " " + escape(id.requestId()) + "\n";
    }

    /** Printable ASCII but space and {@code %} as itself; everything else {@code %XX} per UTF-8 byte. */
    static String escape(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (byte x : text.getBytes(StandardCharsets.UTF_8)) {
            int c = x & 0xFF;
            if (c > 0x20 && c < 0x7F && c != '%') {
                b.append((char) c);
            } else {
                b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        return b.toString();
    }

    static String unescape(String text) {
        byte[] out = new byte[text.length()];
        int n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int hi = i + 2 < text.length() ? Character.digit(text.charAt(i + 1), 16) : -1;
            int lo = i + 2 < text.length() ? Character.digit(text.charAt(i + 2), 16) : -1;
            if (c == '%' && hi >= 0 && lo >= 0) {
                out[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else {
                out[n++] = (byte) c;
            }
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    @Override
    public synchronized boolean isNew(DeliveryId id) {
        return !seen.containsKey(id);
    }

    @Override
    public synchronized void record(DeliveryId id) {
        long now = clock.millis();
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap(line(id, now).getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot record " + id + " in " + path, e);
        }
        seen.put(id, now);
    }

    /**
     * The ids kept.
     *
     * @return how many
     */
    public synchronized int size() {
        return seen.size();
    }

    @Override
    public String toString() {
        return "FileProcessedIds[" + path + "]";
    }
}
