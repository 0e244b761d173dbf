package com.baas.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The bytes of a document (a PDF, an image) that the API carries as Base64 text (spec type
 * {@code document}, decision {@code document-type}): build it from bytes or a file and the
 * SDK sends standard Base64 with padding (RFC 4648 section 4). Immutable (the bytes are
 * copied in and out); equal by content; {@link #toString()} shows the size only, since
 * documents are large and may hold personal data.
 */
public final class Document {
    private static final Pattern BASE64 = Pattern.compile("[A-Za-z0-9+/]*");

    private final byte[] bytes;

    private Document(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * A document of a copy of these bytes.
     *
     * @param bytes the bytes
     * @return the document
     */
    public static Document ofBytes(byte[] bytes) {
        return new Document(bytes.clone());
    }

    /**
     * The file at {@code path}, read whole.
     *
     * @param path the file
     * @return the document
     * @throws IOException when it cannot be read (naming the file)
     */
    public static Document ofPath(Path path) throws IOException {
        return new Document(Files.readAllBytes(path));
    }

    /**
     * A document received as Base64 text, read leniently: white space skipped, the URL-safe
     * symbols {@code -}/{@code _} accepted, padding optional. Text that is still not Base64
     * is kept as it came (its UTF-8 bytes): an answer never fails over a document.
     *
     * @param text the received text
     * @return the document
     */
    public static Document ofReceivedText(String text) {
        String symbols = text.replaceAll("\\s+", "").replace('-', '+').replace('_', '/');
        int end = symbols.length();
        while (end > 0 && symbols.charAt(end - 1) == '=') {
            end--;
        }
        String body = symbols.substring(0, end);
        int padded = symbols.length() - end;
        boolean fits = padded <= 2 && body.length() % 4 != 1 && (padded == 0 || symbols.length() % 4 == 0);
        if (fits && BASE64.matcher(body).matches()) {
            return new Document(Base64.getDecoder().decode(body + "==".substring(0, (4 - body.length() % 4) % 4)));
        }
        return new Document(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The bytes (a copy).
     *
     * @return the bytes
     */
    public byte[] bytes() {
        return bytes.clone();
    }

    /**
     * The size in bytes (what {@code base64_max_bytes} limits).
     *
     * @return the size
     */
    public int length() {
        return bytes.length;
    }

    /**
     * The standard Base64 text with padding, as sent.
     *
     * @return the text
     */
    public String base64() {
        return Base64.getEncoder().encodeToString(bytes);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Document d && Arrays.equals(bytes, d.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /**
     * The size only, never the bytes.
     *
     * @return {@code Document[12 bytes]}
     */
    @Override
    public String toString() {
        return "Document[" + bytes.length + " bytes]";
    }
}
