<?php

declare(strict_types=1);

namespace Baas\Runtime\Tests\Client;

use Baas\Client\Client;
use Baas\Client\Cny\ApplyForCnyExpressRequest;
use Baas\Client\Enums\BeneficiaryType;
use Baas\Client\Enums\CnyDocumentType;
use Baas\Client\Enums\PaymentPurpose;
use Baas\Client\Records\OrderItem;
use Baas\Client\Reversal\TxReversalRequest;
use Baas\Runtime\Config;
use Baas\Runtime\Decimal;
use Baas\Runtime\Document;
use Baas\Runtime\Exception\DecodeError;
use Baas\Runtime\Exception\InvalidRequest;
use Baas\Runtime\Outcome;
use Baas\Runtime\Read;
use Baas\Runtime\RuleKind;
use Baas\Runtime\Testing\MockService;
use Baas\Signing\PrivateKey;
use PHPUnit\Framework\TestCase;

/**
 * Documents (spec type `document`, decision `document-type`): bytes or a file, sent as standard
 * padded Base64 and signed over that text; a document too large is refused before sending; no
 * dump shows a document's bytes; an answer's document never fails to read.
 */
final class DocumentTest extends TestCase
{
    private const KEY = 'partner-test-key';
    private const PDF = "%PDF-1.7\n\x00\xff\xfe\x80";

    private MockService $mock;

    private Client $client;

    protected function setUp(): void
    {
        $this->mock = new MockService(new PrivateKey(self::KEY));
        $this->client = new Client(new Config('https://baas.example.com', 'partner1', new PrivateKey(self::KEY), retryBackoff: 0.0), $this->mock);
    }

    private function cny(Document $support, ?Document $invoice = null, string $payer = '1000000001', string $amount = '100.00'): ApplyForCnyExpressRequest
    {
        return new ApplyForCnyExpressRequest(
            payerAccountId: $payer,
            beneficiaryType: BeneficiaryType::Enterprise,
            beneficiaryName: 'Shenzhen Trading',
            beneficiaryIdNumber: '91440300',
            beneficiaryBankCode: 'CMB',
            beneficiaryBankName: 'China Merchants Bank',
            beneficiaryBankAddress: 'Shenzhen',
            beneficiaryAccountId: '6225880000000000',
            paymentPurpose: PaymentPurpose::PurchaseGoods,
            supportDocumentFile: $support,
            supportDocumentType: CnyDocumentType::Pdf,
            companyRegisDocumentFile: Document::fromBytes('registration'),
            companyRegisDocumentType: CnyDocumentType::Pdf,
            invoiceDocumentType: CnyDocumentType::Pdf,
            oderArray: [new OrderItem(productName: 'goods', quantity: 1, amount: Decimal::of($amount), orderTime: 1, platform: 'shop')],
            invoice: $invoice,
        );
    }

    public function testBytesAreSentAsTheExactBase64TextAndSignedOverIt(): void
    {
        $this->mock->on(TxReversalRequest::class, fn (): array => ['applicationId' => 'A1']);
        self::assertSame('A1', $this->client->txReversal(transactionId: 'T1', voucherBase64: Document::fromBytes(self::PDF))->applicationId);
        // The mock verified the signature over the exact bytes it received.
        self::assertSame('JVBERi0xLjcKAP/+gA==', $this->mock->requestsOf(TxReversalRequest::class)[0]->params->get('voucherBase64'));

        $file = tempnam(sys_get_temp_dir(), 'baas-doc-');
        self::assertIsString($file);
        try {
            file_put_contents($file, self::PDF . self::PDF);
            $this->client->txReversal(transactionId: 'T2', voucherBase64: Document::fromPath($file));
            self::assertSame(base64_encode(self::PDF . self::PDF), $this->mock->requestsOf(TxReversalRequest::class)[1]->params->get('voucherBase64'));
        } finally {
            unlink($file);
        }
        try {
            Document::fromPath($file);
            self::fail('read a missing file');
        } catch (\RuntimeException $e) {
            self::assertStringContainsString($file, $e->getMessage());
        }
    }

    public function testADocumentTooLargeIsRefusedBeforeSendingNamingFieldAndRule(): void
    {
        $this->mock->on(ApplyForCnyExpressRequest::class, fn (): array => ['applicationId' => 'A1']);
        $this->client->runtime()->execute($this->cny(Document::fromBytes('s'), Document::fromBytes(str_repeat("\0", 31457280))));
        try {
            $this->client->runtime()->execute($this->cny(Document::fromBytes('s'), Document::fromBytes(str_repeat("\0", 31457281))));
            self::fail('no InvalidRequest');
        } catch (InvalidRequest $e) {
            self::assertSame([['invoice', RuleKind::Base64MaxBytes]], array_map(static fn ($v): array => [$v->field, $v->rule], $e->violations));
            self::assertStringContainsString('31457281 bytes, at most 31457280 allowed', $e->getMessage());
        }
        self::assertCount(1, $this->mock->requestsOf(ApplyForCnyExpressRequest::class));
    }

    /**
     * The violations of a request refused before sending, as [field, rule], and the message.
     *
     * @return array{0: list<array{0: string, 1: RuleKind}>, 1: string}
     */
    private function refused(ApplyForCnyExpressRequest $request): array
    {
        try {
            $this->client->runtime()->execute($request);
        } catch (InvalidRequest $e) {
            self::assertSame(Outcome::NotSent, $e->outcome());
            return [array_values(array_map(static fn ($v): array => [$v->field, $v->rule], $e->violations)), $e->getMessage()];
        }
        self::fail('no InvalidRequest');
    }

    public function testAnEmptyRequiredDocumentIsRefusedBeforeSendingAsAnEmptyStringIs(): void
    {
        $this->mock->on(ApplyForCnyExpressRequest::class, fn (): array => ['applicationId' => 'A1']);
        [$document, $documentMessage] = $this->refused($this->cny(Document::fromBytes('')));
        self::assertSame([['supportDocumentFile', RuleKind::Required]], $document);
        [$text, $textMessage] = $this->refused($this->cny(Document::fromBytes('s'), payer: ''));
        self::assertSame([['payerAccountId', RuleKind::Required]], $text);
        self::assertSame($textMessage, str_replace('supportDocumentFile', 'payerAccountId', $documentMessage));
        // An empty invoice while the orders exceed 70000 is an absent one.
        [$invoice] = $this->refused($this->cny(Document::fromBytes('s'), Document::fromBytes(''), amount: '70000.01'));
        self::assertSame([['invoice', RuleKind::RequiredIf]], $invoice);
        self::assertCount(0, $this->mock->requestsOf(ApplyForCnyExpressRequest::class));
        $this->client->runtime()->execute($this->cny(Document::fromBytes("\0"), Document::fromBytes("\0"), amount: '70000.01'));
        self::assertCount(1, $this->mock->requestsOf(ApplyForCnyExpressRequest::class));
    }

    /**
     * A document compares by its bytes, with `==` and `assertEquals` as with `equals()`: what keeps
     * its bytes in a property, where `var_export` shows them (see the class's doc).
     */
    public function testADocumentComparesByItsBytes(): void
    {
        self::assertTrue(Document::fromBytes('a') == Document::fromBytes('a'));
        self::assertFalse(Document::fromBytes('a') == Document::fromBytes('b'));
        self::assertEquals(Document::fromBytes('a'), Document::fromBytes('a'));
        self::assertNotEquals(Document::fromBytes('a'), Document::fromBytes('b'));
        self::assertTrue(Document::fromBytes('a')->equals(Document::fromBytes('a')));
        self::assertSame("\0\xff", (clone Document::fromBytes("\0\xff"))->bytes());
    }

    public function testNoDumpShowsADocument(): void
    {
        $secret = Document::fromBytes('PASSPORT-NUMBER-X1234567');
        $request = $this->cny($secret, $secret);
        ob_start();
        var_dump($secret, $request);
        $dumped = (string) ob_get_clean();
        foreach ([(string) $secret, print_r($secret, true), print_r($request, true), $dumped] as $shown) {
            self::assertStringNotContainsString('PASSPORT', $shown);
            self::assertStringNotContainsString('UEFTU1BPUlQ', $shown);
        }
        self::assertSame('Document(24 bytes)', (string) $secret);
        self::assertStringContainsString('24', print_r($secret, true));
    }

    public function testAnAnswersDocumentNeverFailsToRead(): void
    {
        self::assertSame('foobar', Read::document('Zm9vYmFy', 'd')?->bytes());
        self::assertSame('foob', Read::document('Zm9vYg', 'd')?->bytes());
        self::assertSame('foobar', Read::document("Zm9v\r\nYmFy", 'd')?->bytes());
        self::assertSame("\xfb\xff", Read::document('-_8=', 'd')?->bytes());
        self::assertSame('data:application/pdf;base64,JVBE', Read::document('data:application/pdf;base64,JVBE', 'd')?->bytes());
        self::assertNull(Read::document(null, 'd'));
        $this->expectException(DecodeError::class);
        Read::document(12, 'd');
    }
}
