package com.baas.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.baas.client.Client;
import com.baas.client.cny.ApplyForCnyExpressRequest;
import com.baas.client.model.BeneficiaryType;
import com.baas.client.model.CnyDocumentType;
import com.baas.client.model.OrderItem;
import com.baas.client.model.PaymentPurpose;
import com.baas.client.reversal.TxReversalRequest;
import com.baas.runtime.Config;
import com.baas.runtime.DecodeException;
import com.baas.runtime.Document;
import com.baas.runtime.InvalidRequestException;
import com.baas.runtime.Outcome;
import com.baas.runtime.Rule;
import com.baas.runtime.Wire;
import com.baas.runtime.testing.MockAnswer;
import com.baas.runtime.testing.MockService;
import com.baas.signing.JsonValue;
import com.baas.signing.PrivateKey;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Documents (spec type {@code document}, decision {@code document-type}): bytes or a file, sent
 * as standard padded Base64 and signed over that text; a document too large is refused before
 * sending; no toString shows a document's bytes; an answer's document never fails to read.
 */
class DocumentTest {
    static final PrivateKey KEY = new PrivateKey("unit-test-key");
    static final byte[] PDF = {0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0x00, (byte) 0xff, (byte) 0xfe, (byte) 0x80};
    final MockService mock = new MockService(KEY);
    final Client client = new Client(Config.builder("https://baas.example.com", "partner1", KEY).build(), mock);

    static ApplyForCnyExpressRequest cny(Document invoice) {
        return cny("1000000001", Document.ofBytes(new byte[] {1}), invoice, "100.00");
    }

    static ApplyForCnyExpressRequest cny(String payer, Document support, Document invoice, String amount) {
        return ApplyForCnyExpressRequest.builder().payerAccountId(payer).beneficiaryType(BeneficiaryType.ENTERPRISE)
                .beneficiaryName("Shenzhen Trading").beneficiaryIdNumber("91440300").beneficiaryBankCode("CMB")
                .beneficiaryBankName("China Merchants Bank").beneficiaryBankAddress("Shenzhen")
                .beneficiaryAccountId("6225880000000000").paymentPurpose(PaymentPurpose.PURCHASE_GOODS)
                .supportDocumentFile(support).supportDocumentType(CnyDocumentType.PDF)
                .companyRegisDocumentFile(Document.ofBytes(new byte[] {2})).companyRegisDocumentType(CnyDocumentType.PDF)
                .invoiceDocumentType(CnyDocumentType.PDF)
                .orderArray(List.of(OrderItem.builder().productName("goods").quantity(1).amount(new BigDecimal(amount))
                        .orderTime(1L).platform("shop").build()))
                .invoice(invoice).build();
    }

    @Test
    void bytesAreSentAsTheExactBase64TextAndSignedOverIt(@TempDir Path dir) throws IOException {
        mock.on(TxReversalRequest.PATH, p -> MockAnswer.data("{\"applicationId\":\"A1\"}"));
        byte[] given = PDF.clone();
        Document voucher = Document.ofBytes(given);
        given[0] = 0; // the document copied its bytes
        client.txReversal(TxReversalRequest.builder().transactionId("T1").voucherBase64(voucher).build());
        // The mock verified the signature over the exact bytes it received.
        assertEquals("JVBERi0xLjcKAP/+gA==", mock.requests().get(0).params().getString("voucherBase64"));

        Path file = dir.resolve("voucher.pdf");
        Files.write(file, PDF);
        client.txReversal(TxReversalRequest.builder().transactionId("T2").voucherBase64(Document.ofPath(file)).build());
        assertEquals(Base64.getEncoder().encodeToString(PDF), mock.requests().get(1).params().getString("voucherBase64"));
        IOException missing = assertThrows(IOException.class, () -> Document.ofPath(dir.resolve("missing.pdf")));
        assertTrue(missing.getMessage().contains("missing.pdf"), missing.getMessage());
        assertEquals(Document.ofBytes(PDF), Document.ofPath(file));
        assertEquals(Document.ofBytes(PDF).hashCode(), Document.ofPath(file).hashCode());
        assertNotEquals(Document.ofBytes(PDF), Document.ofBytes(new byte[] {1}));
    }

    @Test
    void aDocumentTooLargeIsRefusedBeforeSendingNamingFieldAndRule() {
        mock.on(ApplyForCnyExpressRequest.PATH, p -> MockAnswer.data("{\"applicationId\":\"A1\"}"));
        client.applyForCnyExpress(cny(Document.ofBytes(new byte[31457280])));
        InvalidRequestException e = assertThrows(InvalidRequestException.class,
                () -> client.applyForCnyExpress(cny(Document.ofBytes(new byte[31457281]))));
        assertEquals(1, e.violations().size());
        assertEquals("invoice", e.violations().get(0).field());
        assertEquals(Rule.BASE64_MAX_BYTES, e.violations().get(0).rule());
        assertTrue(e.getMessage().contains("31457281 bytes, at most 31457280 allowed"), e.getMessage());
        assertEquals(1, mock.requests().size());
    }

    @Test
    void anEmptyRequiredDocumentIsRefusedBeforeSendingAsAnEmptyStringIs() {
        mock.on(ApplyForCnyExpressRequest.PATH, p -> MockAnswer.data("{\"applicationId\":\"A1\"}"));
        Document empty = Document.ofBytes(new byte[0]);
        Document oneByte = Document.ofBytes(new byte[] {0});
        InvalidRequestException document = assertThrows(InvalidRequestException.class,
                () -> client.applyForCnyExpress(cny("1000000001", empty, null, "100.00")));
        assertEquals(List.of("supportDocumentFile " + Rule.REQUIRED), shown(document));
        assertEquals(Outcome.NOT_SENT, document.outcome());
        InvalidRequestException text = assertThrows(InvalidRequestException.class,
                () -> client.applyForCnyExpress(cny("", oneByte, null, "100.00")));
        assertEquals(List.of("payerAccountId " + Rule.REQUIRED), shown(text));
        assertEquals(text.getMessage(), document.getMessage().replace("supportDocumentFile", "payerAccountId"));
        // An empty invoice while the orders exceed 70000 is an absent one.
        InvalidRequestException invoice = assertThrows(InvalidRequestException.class,
                () -> client.applyForCnyExpress(cny("1000000001", oneByte, empty, "70000.01")));
        assertEquals(List.of("invoice " + Rule.REQUIRED_IF), shown(invoice));
        assertEquals(0, mock.requests().size());
        client.applyForCnyExpress(cny("1000000001", oneByte, oneByte, "70000.01"));
        assertEquals(1, mock.requests().size());
    }

    static List<String> shown(InvalidRequestException e) {
        return e.violations().stream().map(v -> v.field() + " " + v.rule()).toList();
    }

    @Test
    void noToStringShowsADocument() {
        byte[] secret = "PASSPORT-NUMBER-X1234567".getBytes(StandardCharsets.UTF_8);
        Document doc = Document.ofBytes(secret);
        TxReversalRequest request = TxReversalRequest.builder().transactionId("T1").voucherBase64(doc).build();
        for (String shown : List.of(doc.toString(), request.toString(), cny(doc).toString())) {
            assertFalse(shown.contains("PASSPORT") || shown.contains("UEFTU1BPUlQ"), shown);
        }
        assertEquals("Document[24 bytes]", doc.toString());
    }

    @Test
    void anAnswersDocumentNeverFailsToRead() {
        assertEquals("foobar", text(Wire.document(new JsonValue.JsonString("Zm9vYmFy"), "d")));
        assertEquals("foob", text(Wire.document(new JsonValue.JsonString("Zm9vYg"), "d")));
        assertEquals("foobar", text(Wire.document(new JsonValue.JsonString("Zm9v\r\nYmFy"), "d")));
        assertEquals(Document.ofBytes(new byte[] {(byte) 0xfb, (byte) 0xff}), Wire.document(new JsonValue.JsonString("-_8="), "d"));
        assertEquals("data:application/pdf;base64,JVBE",
                text(Wire.document(new JsonValue.JsonString("data:application/pdf;base64,JVBE"), "d")));
        assertEquals(null, Wire.document(null, "d"));
        assertThrows(DecodeException.class, () -> Wire.document(new JsonValue.JsonBoolean(true), "d"));
    }

    static String text(Document d) {
        return new String(d.bytes(), StandardCharsets.ISO_8859_1);
    }
}
