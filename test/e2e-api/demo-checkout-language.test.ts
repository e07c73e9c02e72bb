import { expect } from 'chai';
import { api, loginAs } from '../support/agent.js';

/** Issue 24: the demo provider's checkout page speaks Korean too, by the storefront's language rule. */
describe('api: the demo checkout page in the visitor language', () => {
  async function checkoutPath(): Promise<string> {
    const buyer = await loginAs('user');
    const order = await api()
      .post('/api/order/insert')
      .set(buyer.auth)
      .send({ platformId: 1, typeId: 1, durationId: 1, languageId: 2, currency: 'KRW' })
      .expect(200);
    const { body } = await api().post('/api/payment/createcheckoutsession').set(buyer.auth).send({ orderId: order.body.id }).expect(200);
    return new URL(body.url).pathname;
  }

  it('is Korean for a visitor whose stored language is Korean, or with ?lang=ko', async () => {
    const path = await checkoutPath();
    for (const page of [await api().get(path).set('Cookie', 'subshare_lang=2').expect(200), await api().get(`${path}?lang=ko`).expect(200)]) {
      expect(page.text).to.contain('<html lang="ko">');
      expect(page.text).to.contain('<h1>데모 결제</h1>');
      expect(page.text).to.contain('데모 결제 대행사: 실제로 돈이 결제되지 않습니다.');
      expect(page.text).to.match(/data-testid="demo-pay">결제하기</);
      expect(page.text).to.not.contain('DEMO PROVIDER');
    }
  });

  it('stays English for an English visitor, and says an unknown link is not valid in Korean too', async () => {
    const path = await checkoutPath();
    const english = await api().get(path).set('Cookie', 'subshare_lang=1').expect(200);
    expect(english.text).to.contain('<html lang="en">');
    expect(english.text).to.contain('DEMO PROVIDER: no real money is charged');
    const invalid = await api().get('/demo-checkout/nonsense.token?lang=ko').expect(404);
    expect(invalid.text).to.contain('이 결제 링크는 유효하지 않거나 만료되었습니다.');
  });
});
