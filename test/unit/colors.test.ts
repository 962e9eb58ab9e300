import { expect } from 'chai';
import { contrastRatio, parseColor, readableOn, textOn, toHex } from '../../lib/colors.ts';

describe('unit: colours and contrast', () => {
  it('parses hex, names and rgb()/rgba() and refuses anything else', () => {
    expect(parseColor('#fff')).to.deep.equal({ r: 255, g: 255, b: 255, a: 1 });
    expect(parseColor('#11223380')).to.deep.include({ r: 0x11, g: 0x22, b: 0x33 });
    expect(parseColor('RebeccaPurple')).to.deep.equal({ r: 0x66, g: 0x33, b: 0x99, a: 1 });
    expect(parseColor('rgb(10, 20, 30)')).to.deep.equal({ r: 10, g: 20, b: 30, a: 1 });
    expect(parseColor('rgba(100%, 0%, 0%, .5)')).to.deep.equal({ r: 255, g: 0, b: 0, a: 0.5 });
    expect(parseColor('rgb(1 2 3 / 40%)')).to.deep.equal({ r: 1, g: 2, b: 3, a: 0.4 });
    for (const bad of ['', 'notacolor', '#12', '#12345', 'rgb(1,2)', 'rgb(a,b,c)', 'url(x)', 'red;']) expect(parseColor(bad), bad).to.equal(null);
  });

  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000', '#fff')).to.be.closeTo(21, 0.01);
    expect(contrastRatio('#fff', '#fff')).to.equal(1);
    expect(contrastRatio('#777', '#fff')).to.be.closeTo(4.48, 0.01);
  });

  it('keeps a readable colour and moves an unreadable one until it reads', () => {
    expect(readableOn('#1a4d8f', '#ffffff')).to.equal('#1a4d8f');
    for (const [fg, bg] of [['#ffffff', '#ffffff'], ['#ffff00', '#ffffff'], ['#000000', '#101010'], ['#777777', '#808080'], ['white', 'rgba(255,255,255,0.9)']] as const) {
      const fixed = readableOn(fg, bg);
      expect(contrastRatio(fixed, bg), `${fg} on ${bg} → ${fixed}`).to.be.at.least(4.5);
    }
  });

  it('picks near-black or white for text on a colour', () => {
    expect(textOn('#ffffff')).to.equal('#111111');
    expect(textOn('#1a1a40')).to.equal('#ffffff');
    expect(toHex({ r: 1, g: 2, b: 255, a: 1 })).to.equal('#0102ff');
  });
});
